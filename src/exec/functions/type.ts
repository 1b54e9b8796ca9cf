// type:: builtins: conversions (type::int, type::thing …) and type::is::* predicates.

import type { BasicTypeName } from "../../ast/nodes.js";
import { CastError } from "../../errors/index.js";
import { cast } from "../../value/index.js";
import { Datetime, Decimal, Duration, Geometry, Range, RecordId, RecordIdRange, Table, Uuid, isValueObject, type RecordIdKey, type Value } from "../../value/types.js";
import { formatDatetimeText, formatFloat } from "./display.js";
import { fn, incorrectArguments, wrongType, type BuiltinTable } from "./registry.js";
import { asRawString, convertError, parseRecordIdText } from "./util.js";
import { isUuidText } from "./validate.js";
import type { Compat } from "../session.js";

const isNumber = (v: Value): v is bigint | number | Decimal => typeof v === "bigint" || typeof v === "number" || v instanceof Decimal;

function toStringValue(v: Value, compat: Compat = 2): string {
  if (v === undefined || v === null) throw convertError(v, "string", compat);
  if (v instanceof Datetime) return formatDatetimeText(v);
  if (v instanceof Uuid) return v.text;
  return asRawString(v);
}

export function toRecord(v: Value, table?: string, compat: Compat = 2): RecordId {
  const into = table === undefined ? "record" : `record<${table}>`;
  const rid = v instanceof RecordId ? v : typeof v === "string" ? parseRecordIdText(v, compat) : undefined;
  if (!rid || (table !== undefined && rid.table !== table)) throw convertError(v, into, compat);
  return rid;
}

/** type::thing's key conversion: records lend their key, ints stay ints, arrays/objects stay, the rest becomes text. */
function recordKey(v: Value): RecordIdKey {
  if (v instanceof RecordId) return v.id;
  if (typeof v === "bigint" || typeof v === "string" || Array.isArray(v) || isValueObject(v)) return v;
  if (typeof v === "number") return formatFloat(v);
  if (v instanceof Datetime) return formatDatetimeText(v);
  if (v instanceof Uuid) return v.text;
  return asRawString(v);
}

const tableName = (v: Value): string => (v instanceof Table ? v.name : typeof v === "string" ? v : v instanceof RecordId ? v.table : toStringValue(v === undefined ? "NONE" : v === null ? "NULL" : v));

const is = (test: (v: Value) => boolean) => fn(["any"], ([v]) => test(v));
const geometryIs = (...types: Geometry["type"][]) => is((v) => v instanceof Geometry && types.includes(v.type));

/** `<name> v`, SurrealDB's cast, which is what type::int / type::float / … call. */
const castTo = (name: BasicTypeName) => fn(["any"], ([v], { compat }) => cast(v, { kind: "Basic", name }, { compat }));

/** type::fields' argument: an array of strings ("Expected a array<string> but found" the first other element). */
function fieldNames(v: Value, compat: Compat): string[] {
  const names = v as Value[];
  const bad = names.find((n) => typeof n !== "string");
  if (bad !== undefined) throw wrongType("type::fields", 0, "array<string>", bad, compat);
  return names as string[];
}

export const typeFunctions: BuiltinTable = {
  // Outside a SELECT projection (which places them by path: exec/field-names.ts) they read the current document.
  "type::field": fn(["string"], ([name], ctx) => ctx.fieldValue?.(name as string) ?? null),
  "type::fields": fn(["array"], async ([names], ctx) => {
    const out: Value[] = [];
    for (const name of fieldNames(names, ctx.compat)) out.push(await ctx.fieldValue?.(name));
    return out;
  }),
  "type::bool": castTo("bool"),
  "type::datetime": castTo("datetime"),
  "type::decimal": castTo("decimal"),
  "type::duration": castTo("duration"),
  "type::float": castTo("float"),
  "type::int": castTo("int"),
  "type::number": castTo("number"),
  "type::string": castTo("string"),
  "type::table": fn(["any"], ([v]) => new Table(tableName(v))),
  "type::thing": fn(["any", "any?"], (args, { compat }) => {
    if (args.length === 1) return toRecord(args[0], undefined, compat);
    const tb = args[0] instanceof Table ? args[0].name : asRawString(args[0]);
    return new RecordId(tb, recordKey(args[1]));
  }),
  "type::record": fn(
    ["any", "any?"],
    (args, { compat }) => {
      if (args.length === 1) return toRecord(args[0], undefined, compat);
      const tb = args[1];
      if (typeof tb !== "string" && !(tb instanceof Table)) {
        throw incorrectArguments("type::record", "The second argument must be a table name or a string.");
      }
      return toRecord(args[0], typeof tb === "string" ? tb : tb.name, compat);
    },
    { compat: 2 },
  ),
  "type::uuid": fn(
    ["any"],
    ([v], { compat }) => {
      if (v instanceof Uuid) return v;
      if (typeof v === "string" && isUuidText(v)) {
        const hex = v.replace(/^urn:uuid:|[{}-]/g, "").toLowerCase();
        return new Uuid(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
      }
      throw convertError(v, "uuid", compat);
    },
    { compat: 2 },
  ),
  "type::array": fn(
    ["any"],
    ([v], { compat }) => {
      if (Array.isArray(v)) return v;
      throw convertError(v, "array", compat);
    },
    { compat: 2 },
  ),

  "type::is::array": is(Array.isArray),
  "type::is::bool": is((v) => typeof v === "boolean"),
  "type::is::bytes": is((v) => v instanceof Uint8Array),
  "type::is::collection": geometryIs("GeometryCollection"),
  "type::is::datetime": is((v) => v instanceof Datetime),
  "type::is::decimal": is((v) => v instanceof Decimal),
  "type::is::duration": is((v) => v instanceof Duration),
  "type::is::float": is((v) => typeof v === "number"),
  "type::is::geometry": is((v) => v instanceof Geometry),
  "type::is::int": is((v) => typeof v === "bigint"),
  "type::is::line": geometryIs("LineString"),
  "type::is::none": is((v) => v === undefined),
  "type::is::null": is((v) => v === null),
  "type::is::multiline": geometryIs("MultiLineString"),
  "type::is::multipoint": geometryIs("MultiPoint"),
  "type::is::multipolygon": geometryIs("MultiPolygon"),
  "type::is::number": is(isNumber),
  "type::is::object": is(isValueObject),
  "type::is::point": geometryIs("Point"),
  "type::is::polygon": geometryIs("Polygon"),
  "type::is::range": fn(["any"], ([v]) => v instanceof RecordIdRange || v instanceof Range, { compat: 2 }),
  "type::is::string": is((v) => typeof v === "string"),
  "type::is::uuid": is((v) => v instanceof Uuid),
  // Checked by hand: SurrealDB converts the table name before it counts the arguments.
  "type::is::record": fn(["...any"], (args) => {
    const tb = args[1];
    if (args.length >= 2 && typeof tb !== "string") throw new CastError(`Expected a string but found ${asRawString(tb)}`);
    if (args.length < 1 || args.length > 2) throw incorrectArguments("type::is::record", "Expected 1 or 2 arguments.");
    const v = args[0];
    return v instanceof RecordId && (args.length === 1 || v.table === tb);
  }),
};
