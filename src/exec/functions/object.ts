// object:: builtins: keys, values, entries in SurrealDB's (sorted) key order.

import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import { asRawString } from "./util.js";
import { hasField, setField } from "../../value/object.js";
import type { Value, ValueObject } from "../../value/types.js";

const obj = (v: Value): ValueObject => v as ValueObject;
/** Objects are BTreeMaps in SurrealDB: keys come out sorted. */
const keys = (o: ValueObject): string[] => Object.keys(o).filter((k) => o[k] !== undefined || hasField(o, k)).sort();

export const objectFunctions: BuiltinTable = {
  "object::entries": fn(["object"], ([o]) => keys(obj(o)).map((k) => [k, obj(o)[k]])),
  "object::from_entries": fn(["array"], ([a]) => {
    const out: ValueObject = {};
    for (const entry of a as Value[]) {
      if (!Array.isArray(entry) || entry.length !== 2) {
        throw incorrectArguments("object::from_entries", `Expected entries, found ${Array.isArray(entry) ? "array" : "value"}`);
      }
      setField(out, asRawString(entry[0]), entry[1]);
    }
    return out;
  }),
  "object::keys": fn(["object"], ([o]) => keys(obj(o))),
  "object::len": fn(["object"], ([o]) => BigInt(keys(obj(o)).length)),
  "object::values": fn(["object"], ([o]) => keys(obj(o)).map((k) => obj(o)[k])),
  "object::is_empty": fn(["object"], ([o]) => keys(obj(o)).length === 0, { compat: 2 }),
};
