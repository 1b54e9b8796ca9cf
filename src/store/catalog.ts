// store/: the catalog of every definition (ns, db, users, accesses, tables, fields, indexes, params, events, functions):
// a synchronous in-memory snapshot per node. Writes go through the transaction, to memory (undone on cancel) and to
// the store (one entry per definition, see catalog-keys.ts), where they bump the catalog version.

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
import { encodeDefinition } from "./catalog-codec.js";
import { writeDefinition, type CatalogTxn } from "./catalog-journal.js";
import { defKey, defKeyAfter, subtree, type Level, type Tag } from "./catalog-keys.js";

import type { Key } from "./kv/types.js";

export type { CatalogTxn } from "./catalog-journal.js";

/** A map of definitions that knows where its entries are stored: the level and the two-letter tag of its keys. */
export class DefMap<V> extends Map<string, V> {
  /** The key of the entry named "" (its level and tag), made at the first write. */
  private prefix: Key | undefined;

  constructor(
    readonly at: Level,
    readonly tag: Tag,
  ) {
    super();
  }

  /** Where entry `name` is stored. */
  keyOf(name: string): Key {
    this.prefix ??= defKey(this.at, this.tag, "");
    return defKeyAfter(this.prefix, name);
  }
}

export interface TableEntry {
  def: DefineTableStatement;
  /** Keyed by the field path text (`a.b`, `tags[*]`), in definition order. */
  readonly fields: DefMap<DefineFieldStatement>;
  readonly indexes: DefMap<DefineIndexStatement>;
  readonly events: DefMap<DefineEventStatement>;
}

export interface DatabaseEntry {
  def: DefineDatabaseStatement;
  readonly users: DefMap<StoredUser>;
  readonly accesses: DefMap<StoredAccess>;
  readonly tables: DefMap<TableEntry>;
  readonly params: DefMap<DefineParamStatement>;
  readonly functions: DefMap<DefineFunctionStatement>;
  readonly analyzers: DefMap<DefineAnalyzerStatement>;
}

export interface NamespaceEntry {
  def: DefineNamespaceStatement;
  readonly users: DefMap<StoredUser>;
  readonly accesses: DefMap<StoredAccess>;
  readonly databases: DefMap<DatabaseEntry>;
}

/** Tags whose entries are containers: the stored form is the entry's `def`, its children live under their own level. */
const CONTAINERS: Partial<Record<Tag, true>> = { ns: true, db: true, tb: true };

/** The level the children of container `name` in `map` live at. */
function childLevel(map: DefMap<unknown>, name: string): Level {
  const at = map.at;
  if (at.ns === undefined) return { ns: name };
  if (at.db === undefined) return { ns: at.ns, db: name };
  return { ns: at.ns, db: at.db, tb: name };
}

/** What the store keeps of a map entry. */
export function storedForm(tag: Tag, value: unknown): unknown {
  return CONTAINERS[tag] ? (value as { def: unknown }).def : value;
}

/** Set `map[key] = value` under `txn`, in memory and in the store. */
export function putIn<V>(txn: CatalogTxn, map: DefMap<V>, key: string, value: V): void {
  const had = map.has(key);
  const prev = map.get(key);
  map.set(key, value);
  txn.onCancel(() => (had ? map.set(key, prev as V) : map.delete(key)));
  writeDefinition(txn, map.keyOf(key), () => encodeDefinition(storedForm(map.tag, value)), undefined, { value: prev });
}

/** Replace the definition of an existing namespace, database or table, keeping what it holds. */
export function redefine<D>(txn: CatalogTxn, map: DefMap<{ def: D }>, key: string, def: D): void {
  const entry = map.get(key)!;
  const prev = entry.def;
  entry.def = def;
  txn.onCancel(() => (entry.def = prev));
  writeDefinition(txn, map.keyOf(key), () => encodeDefinition(def));
}

/** Delete `map[key]` under `txn`; a namespace, database or table takes everything under it in the store along. */
export function deleteIn<V>(txn: CatalogTxn, map: DefMap<V>, key: string): void {
  if (!map.has(key)) return;
  const prev = map.get(key) as V;
  map.delete(key);
  txn.onCancel(() => map.set(key, prev));
  writeDefinition(txn, map.keyOf(key), undefined, CONTAINERS[map.tag] ? subtree(childLevel(map, key)) : undefined, { value: prev });
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
  const at = { ns: def.name };
  return { def, users: new DefMap(at, "us"), accesses: new DefMap(at, "ac"), databases: new DefMap(at, "db") };
}

export function newDatabaseEntry(ns: string, def: DefineDatabaseStatement): DatabaseEntry {
  const at = { ns, db: def.name };
  return {
    def,
    users: new DefMap(at, "us"),
    accesses: new DefMap(at, "ac"),
    tables: new DefMap(at, "tb"),
    params: new DefMap(at, "pa"),
    functions: new DefMap(at, "fn"),
    analyzers: new DefMap(at, "az"),
  };
}

export function newTableEntry(ns: string, db: string, def: DefineTableStatement): TableEntry {
  const at = { ns, db, tb: def.name };
  return { def, fields: new DefMap(at, "fd"), indexes: new DefMap(at, "ix"), events: new DefMap(at, "ev") };
}

export class Catalog implements AuthCatalog {
  readonly rootUsers = new DefMap<StoredUser>({}, "us");
  readonly rootAccesses = new DefMap<StoredAccess>({}, "ac");
  readonly namespaces = new DefMap<NamespaceEntry>({}, "ns");

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
  usersAt(base: Base, ns: string | undefined, db: string | undefined): DefMap<StoredUser> | undefined {
    if (base === "ROOT") return this.rootUsers;
    if (base === "NAMESPACE") return this.ns(ns)?.users;
    return this.db(ns, db)?.users;
  }

  accessesAt(base: Base, ns: string | undefined, db: string | undefined): DefMap<StoredAccess> | undefined {
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

  /** A catalog without a store has nothing uncommitted: memory is the committed state. */
  committedDefinition(kind: "user" | "access", base: Base, ns: string | undefined, db: string | undefined, name: string): object | undefined {
    return kind === "user" ? this.getUser(base, ns, db, name) : this.getAccess(base, ns, db, name);
  }
}
