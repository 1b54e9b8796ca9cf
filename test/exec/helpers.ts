// Test helpers: sessions for each identity and compact query results (JSON form, as the oracle prints them).

import { Datastore } from "../../src/exec/datastore.js";
import type { DatastoreOptions } from "../../src/exec/datastore.js";
import { newSession } from "../../src/exec/session.js";
import type { Actor, Session } from "../../src/exec/session.js";
import { toJson } from "../../src/value/index.js";
import { RecordId } from "../../src/value/types.js";
import type { Role } from "../../src/ast/nodes.js";

export function rootSession(ns = "test", db = "test", roles: Role[] = ["OWNER"]): Session {
  return newSession({ ns, db, actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles } });
}

export function systemSession(level: "Namespace" | "Database", roles: Role[], ns = "test", db = "test"): Session {
  const actor: Actor = { level, ns, db: level === "Database" ? db : undefined, id: "u", roles };
  return newSession({ ns, db, actor });
}

export function recordSession(table: string, key: string | bigint, ns = "test", db = "test", ac = "account"): Session {
  const rd = new RecordId(table, key);
  return newSession({ ns, db, actor: { level: "Record", ns, db, id: `${table}:${String(key)}`, roles: [] }, rd, ac });
}

export type Outcome = { ok: unknown } | { err: string };

/** Run text and return `{ok: json}` / `{err: message}` per statement. */
export async function run(ds: Datastore, session: Session, text: string, signal?: AbortSignal): Promise<Outcome[]> {
  const rs = await ds.execute(text, session, {}, { signal });
  return rs.map((r) => (r.status === "OK" ? { ok: toJson(r.result, { compat: ds.compat }) } : { err: r.result }));
}

export function newDs(opts: DatastoreOptions = {}): Datastore {
  return new Datastore(opts);
}

export const SEED_SCHEMA = `
DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update, delete WHERE id = $auth.id;
DEFINE FIELD name ON user TYPE string;
DEFINE FIELD email ON user TYPE string ASSERT string::is::email($value);
DEFINE FIELD password ON user TYPE string;
DEFINE INDEX email ON user FIELDS email UNIQUE;
`;
