// The value layer's public surface: the data model plus every operation on it.
//
// Version switch: functions that differ between SurrealDB 1.5.x and 2.x take `{ compat?: 1 | 2 }`
// (default 2). The differences, all observed on the real engines: 2.x prints datetimes `d'…'` and
// uuids `u'…'`, escapes record keys with backticks (1.x `⟨…⟩`), escapes reserved words and
// digit-led identifiers, escapes control characters in strings; 1.x saturates negative duration
// and datetime differences at 0ns, fails on division by zero, compares int with float via f64,
// treats 'tb:id' strings as equal to record ids, coerces strings into record ids, datetimes and
// uuids for field TYPEs, and holds the epoch datetime falsy.
export * from "./types.js";
export * from "./compat.js";
export * from "./duration.js";
export * from "./datetime.js";
export * from "./uuid.js";
export * from "./record.js";
export * from "./compare.js";
export * from "./truthy.js";
export * from "./kind.js";
export * from "./display.js";
export * from "./json.js";
export * from "./cast.js";
export * from "./ops.js";
export * from "./decimal.js";
export * from "./clone.js";
export * from "./size.js";
export * from "./int.js";
export * from "./range.js";
export * from "./object.js";
export * from "./regex.js";
export * from "./geometry.js";
