// exec/statements: is a DEFINE already in the catalog exactly as written? Start-up imports skip such a statement, so
// loading a schema again on an existing store neither fails nor rotates the keys it generated (user codes, access keys).

import type { DefineStatement } from "../../ast/nodes.js";
import { idiomText } from "../../store/catalog.js";
import { sameDefinition } from "../../store/catalog-codec.js";
import type { Catalog } from "../../store/catalog.js";
import { HASHING } from "../functions/hashing.js";

/** What the catalog holds for the definition `s` names, at the session's namespace / database. */
function stored(catalog: Catalog, s: DefineStatement, ns: string | undefined, db: string | undefined): unknown {
  const level = (base: "ROOT" | "NAMESPACE" | "DATABASE") => ({ ns: base === "ROOT" ? undefined : ns, db: base === "DATABASE" ? db : undefined });
  const database = catalog.db(ns, db);
  switch (s.kind) {
    case "DefineNamespace":
      return catalog.ns(s.name)?.def;
    case "DefineDatabase":
      return catalog.db(ns, s.name)?.def;
    case "DefineUser": {
      const at = level(s.base);
      return catalog.getUser(s.base, at.ns, at.db, s.name)?.def;
    }
    case "DefineAccess": {
      const at = level(s.base);
      return catalog.getAccess(s.base, at.ns, at.db, s.name)?.def;
    }
    case "DefineTable":
      return database?.tables.get(s.name)?.def;
    case "DefineField":
      return database?.tables.get(s.table)?.fields.get(idiomText(s.name));
    case "DefineIndex":
      return database?.tables.get(s.table)?.indexes.get(s.name);
    case "DefineEvent":
      return database?.tables.get(s.table)?.events.get(s.name);
    case "DefineParam":
      return database?.params.get(s.name);
    case "DefineFunction":
      return database?.functions.get(s.name);
    case "DefineAnalyzer":
      return database?.analyzers.get(s.name);
  }
}

/**
 * True when running `s` would store what is stored already. A PASSWORD matches when it verifies against the stored
 * hash; a DEFINE PARAM only when its value is a literal (anything else is computed anew).
 */
export async function definedAlready(catalog: Catalog, s: DefineStatement, ns: string | undefined, db: string | undefined): Promise<boolean> {
  const have = stored(catalog, s, ns, db);
  if (have === undefined) return false;
  const written = { ...s, ifNotExists: false, overwrite: false };
  if (s.kind === "DefineParam" && s.value.kind !== "Literal") return false;
  if (s.kind !== "DefineUser") return sameDefinition(have, written);
  const passhash = (have as { passhash?: string }).passhash ?? "";
  if (!sameDefinition(have, { ...written, password: undefined, passhash })) return false;
  if (s.password === undefined) return s.passhash === passhash;
  const check = HASHING.argon2.prepare(passhash);
  return check.ok && (await check.verify(s.password));
}
