// store/: the catalog of every definition (ns, db, users, accesses, tables, fields, indexes, params, events, functions).
// Writes go through a Transaction so a cancelled transaction also undoes DEFINE / REMOVE.

import type {
  Base,
  DefineAnalyzerStatement,
  DefineDatabaseStatement,
  DefineEventStatement,
  DefineFieldStatement,
  DefineFunctionStatement,
  DefineIndexStatement,
  DefineNamespaceStatement,
  DefineParamStatement,
  DefineTableStatement,
  IdiomExpr,
} from "../ast/nodes.js";
import type { AuthCatalog, StoredAccess, StoredUser } from "../exec/contract.js";
import type { Transaction } from "./transaction.js";

export interface TableEntry {
  def: DefineTableStatement;
  /** Keyed by the field path text (`a.b`, `tags[*]`), in definition order. */
  readonly fields: Map<string, DefineFieldStatement>;
  readonly indexes: Map<string, DefineIndexStatement>;
  readonly events: Map<string, DefineEventStatement>;
}

export interface DatabaseEntry {
  def: DefineDatabaseStatement;
  readonly users: Map<string, StoredUser>;
  readonly accesses: Map<string, StoredAccess>;
  readonly tables: Map<string, TableEntry>;
  readonly params: Map<string, DefineParamStatement>;
  readonly functions: Map<string, DefineFunctionStatement>;
  readonly analyzers: Map<string, DefineAnalyzerStatement>;
}

export interface NamespaceEntry {
  def: DefineNamespaceStatement;
  readonly users: Map<string, StoredUser>;
  readonly accesses: Map<string, StoredAccess>;
  readonly databases: Map<string, DatabaseEntry>;
}

/** Set `map[key] = value` under `txn`. */
export function putIn<K, V>(txn: Transaction, map: Map<K, V>, key: K, value: V): void {
  const had = map.has(key);
  const prev = map.get(key);
  map.set(key, value);
  txn.onCancel(() => (had ? map.set(key, prev as V) : map.delete(key)));
}

/** Delete `map[key]` under `txn`. */
export function deleteIn<K, V>(txn: Transaction, map: Map<K, V>, key: K): void {
  if (!map.has(key)) return;
  const prev = map.get(key) as V;
  map.delete(key);
  txn.onCancel(() => map.set(key, prev));
}

/** The text form of a field path as the catalog keys it (`a.b`, `a[*]`, `a.*`). */
export function idiomText(idiom: IdiomExpr): string {
  let out = "";
  for (const p of idiom.parts) {
    if (p.kind === "Field") out += out === "" ? p.name : `.${p.name}`;
    else if (p.kind === "All") out += "[*]";
    else if (p.kind === "Last") out += "[$]";
    else if (p.kind === "Index" && p.index.kind === "Literal") out += `[${String(p.index.value)}]`;
    else out += `[${p.kind}]`;
  }
  return out;
}

export function newNamespaceEntry(def: DefineNamespaceStatement): NamespaceEntry {
  return { def, users: new Map(), accesses: new Map(), databases: new Map() };
}

export function newDatabaseEntry(def: DefineDatabaseStatement): DatabaseEntry {
  return { def, users: new Map(), accesses: new Map(), tables: new Map(), params: new Map(), functions: new Map(), analyzers: new Map() };
}

export function newTableEntry(def: DefineTableStatement): TableEntry {
  return { def, fields: new Map(), indexes: new Map(), events: new Map() };
}

export class Catalog implements AuthCatalog {
  readonly rootUsers = new Map<string, StoredUser>();
  readonly rootAccesses = new Map<string, StoredAccess>();
  readonly namespaces = new Map<string, NamespaceEntry>();

  ns(ns: string | undefined): NamespaceEntry | undefined {
    return ns === undefined ? undefined : this.namespaces.get(ns);
  }

  db(ns: string | undefined, db: string | undefined): DatabaseEntry | undefined {
    return db === undefined ? undefined : this.ns(ns)?.databases.get(db);
  }

  table(ns: string | undefined, db: string | undefined, tb: string): TableEntry | undefined {
    return this.db(ns, db)?.tables.get(tb);
  }

  /** The users map of a level, if that level exists. */
  usersAt(base: Base, ns: string | undefined, db: string | undefined): Map<string, StoredUser> | undefined {
    if (base === "ROOT") return this.rootUsers;
    if (base === "NAMESPACE") return this.ns(ns)?.users;
    return this.db(ns, db)?.users;
  }

  accessesAt(base: Base, ns: string | undefined, db: string | undefined): Map<string, StoredAccess> | undefined {
    if (base === "ROOT") return this.rootAccesses;
    if (base === "NAMESPACE") return this.ns(ns)?.accesses;
    return this.db(ns, db)?.accesses;
  }

  getUser(base: Base, ns: string | undefined, db: string | undefined, name: string): StoredUser | undefined {
    return this.usersAt(base, ns, db)?.get(name);
  }

  getAccess(base: Base, ns: string | undefined, db: string | undefined, name: string): StoredAccess | undefined {
    return this.accessesAt(base, ns, db)?.get(name);
  }
}
