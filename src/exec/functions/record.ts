// record:: (SurrealDB 2) and meta:: (both versions) builtins on record ids; record::exists reads through ctx.fetchRecord.

import { QueryError } from "../../errors/index.js";
import { RecordId, type Value } from "../../value/types.js";
import { fn, type BuiltinTable } from "./registry.js";

const rid = (v: Value): RecordId => v as RecordId;

export const recordFunctions: BuiltinTable = {
  "meta::id": fn(["record"], ([r]) => rid(r).id as Value),
  "meta::tb": fn(["record"], ([r]) => rid(r).table),
  "record::id": fn(["record"], ([r]) => rid(r).id as Value, { compat: 2 }),
  "record::tb": fn(["record"], ([r]) => rid(r).table, { compat: 2 }),
  "record::table": fn(["record"], ([r]) => rid(r).table, { compat: 2 }),
  "record::exists": fn(
    ["record"],
    async ([r], ctx) => {
      if (!ctx.fetchRecord) throw new QueryError("Unsupported", "record::exists() needs the engine's fetchRecord hook");
      return (await ctx.fetchRecord(rid(r))) !== undefined;
    },
    { compat: 2 },
  ),
};

