// test/exec: a probe for hit / miss equality (attack R6, pass 9 G2) — runs a query as a record user on a store that
// notes the table of every record read, and notes the decisions the denial log hears.

import { expect } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession, type Session } from "../../src/exec/session.js";
import { KvRecordStore } from "../../src/store/records.js";
import type { TableRef } from "../../src/store/records.js";
import type { Transaction } from "../../src/store/transaction.js";
import { RecordId } from "../../src/value/types.js";
import { rootSession, run, type Outcome } from "./helpers.js";

/** A record store that notes the table of every `get`. */
class CountingStore extends KvRecordStore {
  reads: string[] = [];
  override get(txn: Transaction, t: TableRef, id: RecordId) {
    this.reads.push(t.tb);
    return super.get(txn, t, id);
  }
}

export interface Probed {
  readonly out: Outcome[];
  /** Tables of the records read, sorted. */
  readonly reads: string[];
  /** Refused decisions (`action table clause`), sorted. */
  readonly denials: string[];
}

/** A datastore set up by root with `schema`; `probe` runs a query as record user `user:mallory` (or `session`). */
export async function missProbe(compat: 1 | 2, schema: string): Promise<(sql: string, session?: Session) => Promise<Probed>> {
  const store = new CountingStore();
  const denials: string[] = [];
  const ds = new Datastore({ compat, records: store, onDenied: (d) => denials.push(`${d.action} ${d.table} ${d.clause}`) });
  await run(ds, rootSession(), schema);
  const level = compat === 1 ? "Scope" : "Record";
  const mallory = newSession({ ns: "test", db: "test", actor: { level, ns: "test", db: "test", id: "user:mallory", roles: [] }, rd: new RecordId("user", "mallory"), ac: "account" });
  return async (sql, session = mallory) => {
    store.reads = [];
    denials.length = 0;
    const out = await run(ds, session, sql);
    return { out, reads: [...store.reads].sort(), denials: [...denials].sort() };
  };
}

/** Runs `hit`, then `miss`: the same answer, no error, the same records read. The two probes, for more checks. */
export async function hitAndMiss(probe: (sql: string) => Promise<Probed>, hit: string, miss: string): Promise<{ h: Probed; m: Probed }> {
  const h = await probe(hit);
  const m = await probe(miss);
  expect(m.out).toEqual(h.out);
  expect(m.out).not.toContainEqual(expect.objectContaining({ err: expect.anything() }));
  expect(m.reads).toEqual(h.reads);
  return { h, m };
}
