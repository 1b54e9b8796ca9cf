// The value layer's public surface: the data model plus every operation on it.
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
