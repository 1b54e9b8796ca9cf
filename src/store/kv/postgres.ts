// store/kv/: the `postgres://USER@HOST:PORT/DB` backend — several servers share one PostgreSQL through `pg`.
// Table kv(k bytea PRIMARY KEY, v bytea); each KV transaction holds one pooled client in a SERIALIZABLE
// transaction for its whole life; writes stay buffered (reads see them) and are flushed at commit; PostgreSQL's
// serialization failures (40001) and deadlocks (40P01) become SurrealDB's retryable conflict.

import pg from "pg";
import type { PendingWrites } from "./buffer.js";
import type { KeyString } from "./bytes.js";
import { conflict } from "./occ.js";
import { BufferedTransaction, type Snapshot, type StringEntry } from "./transaction.js";
import type { KvStore, KvTransaction, TransactionMode } from "./types.js";

const BATCH = 1000;
const RETRYABLE_STATES = new Set(["40001", "40P01"]);

const buf = (k: KeyString): Buffer => Buffer.from(k, "latin1");
const str = (b: Buffer): KeyString => b.toString("latin1");
const bytes = (v: Uint8Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

const SQL = {
  get: { name: "kv_get", text: "SELECT v FROM kv WHERE k = $1" },
  getMany: { name: "kv_get_many", text: "SELECT k, v FROM kv WHERE k = ANY($1::bytea[])" },
  forward: { name: "kv_forward", text: "SELECT k, v FROM kv WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3" },
  backward: { name: "kv_backward", text: "SELECT k, v FROM kv WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3" },
  deleteRange: { name: "kv_delete_range", text: "DELETE FROM kv WHERE k >= $1 AND k < $2" },
  delete: { name: "kv_delete", text: "DELETE FROM kv WHERE k = ANY($1::bytea[])" },
  put: {
    name: "kv_put",
    text: "INSERT INTO kv (k, v) SELECT * FROM unnest($1::bytea[], $2::bytea[]) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
  },
} as const;

/** Runs a statement; a serialization failure becomes TxRetryable. */
async function run<R extends pg.QueryResultRow>(client: pg.PoolClient, q: { name: string; text: string } | string, values: unknown[] = []): Promise<R[]> {
  try {
    return (await client.query<R>(typeof q === "string" ? q : { ...q, values })).rows;
  } catch (e) {
    throw RETRYABLE_STATES.has((e as { code?: string }).code ?? "") ? conflict() : e;
  }
}

/** One KV transaction's client. BEGIN is sent lazily, in the same round trip as the first get when that comes
 *  first (simple protocol, the key as a hex bytea literal): a catalog version check costs no extra trip. */
class Session {
  private begun = false;
  /** One statement at a time on the client (pg 9 refuses overlapping queries; catalog sync scans side by side). */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly client: pg.PoolClient,
    private readonly beginSql: string,
  ) {}

  get started(): boolean {
    return this.begun;
  }

  /** Runs `f` after every statement sent before it has answered. */
  private inTurn<T>(f: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(f, f);
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  async begin(): Promise<void> {
    if (this.begun) return;
    this.begun = true;
    await this.inTurn(() => run(this.client, this.beginSql));
  }

  snapshot(): Snapshot {
    return {
      get: async (k) => {
        if (this.begun) return (await this.inTurn(() => run<{ v: Buffer }>(this.client, SQL.get, [buf(k)])))[0]?.v;
        this.begun = true;
        const results = await this.inTurn(() => multi(this.client, `${this.beginSql}; SELECT v FROM kv WHERE k = '\\x${buf(k).toString("hex")}'::bytea`));
        return (results[1]?.rows[0] as { v: Buffer } | undefined)?.v;
      },
      getMany: async (keys) => {
        await this.begin();
        const rows = await this.inTurn(() => run<{ k: Buffer; v: Buffer }>(this.client, SQL.getMany, [keys.map(buf)]));
        const found = new Map(rows.map((r) => [str(r.k), r.v] as const));
        return keys.map((k) => found.get(k));
      },
      scan: (start, end, reverse, batch) => this.scan(start, end, reverse, batch),
    };
  }

  private async *scan(start: KeyString, end: KeyString, reverse: boolean, batch: number): AsyncIterable<StringEntry[]> {
    await this.begin();
    let [lo, hi] = [buf(start), buf(end)];
    for (;;) {
      const [from, to] = [lo, hi];
      const rows = await this.inTurn(() => run<{ k: Buffer; v: Buffer }>(this.client, reverse ? SQL.backward : SQL.forward, [from, to, batch]));
      if (rows.length > 0) yield rows.map((r) => [str(r.k), r.v, r.k] as const);
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!.k;
      if (reverse) hi = last;
      else lo = Buffer.concat([last, Buffer.from([0])]);
    }
  }
}

/** Several statements in one simple-protocol round trip: one result each. */
async function multi(client: pg.PoolClient, sql: string): Promise<pg.QueryResult[]> {
  try {
    return (await client.query(sql)) as unknown as pg.QueryResult[];
  } catch (e) {
    throw RETRYABLE_STATES.has((e as { code?: string }).code ?? "") ? conflict() : e;
  }
}

async function flush(client: pg.PoolClient, writes: PendingWrites): Promise<void> {
  for (const [s, e] of writes.ranges) await run(client, SQL.deleteRange, [buf(s), buf(e)]);
  if (writes.deletes.length > 0) await run(client, SQL.delete, [writes.deletes.map(buf)]);
  if (writes.sets.length > 0) await run(client, SQL.put, [writes.sets.map(([k]) => buf(k)), writes.sets.map(([, v]) => bytes(v))]);
}

export class PostgresStore implements KvStore {
  readonly kind = "postgres";

  private constructor(private readonly pool: pg.Pool) {}

  /** `max` clients, one per open KV transaction; a begin waits for a free one at most `connectTimeoutMs`. */
  static async open(url: string, options: { max?: number; connectTimeoutMs?: number } = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: options.max ?? 16, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000 });
    // an idle client's connection error must not crash the process; the next query reports it
    pool.on("error", () => {});
    try {
      await pool.query("CREATE TABLE IF NOT EXISTS kv (k bytea PRIMARY KEY, v bytea NOT NULL)");
    } catch (e) {
      // two servers starting at once may both try to create the table
      if ((e as { code?: string }).code !== "23505") {
        await pool.end();
        throw e;
      }
    }
    return new PostgresStore(pool);
  }

  async begin(mode: TransactionMode): Promise<KvTransaction> {
    const client = await this.pool.connect();
    const session = new Session(client, mode === "read" ? "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY" : "BEGIN ISOLATION LEVEL SERIALIZABLE");
    let released = false;
    const end = async (sql: "COMMIT" | "ROLLBACK"): Promise<void> => {
      try {
        if (session.started) await run(client, sql);
      } catch (e) {
        if (sql === "COMMIT") await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        if (!released) client.release();
        released = true;
      }
    };
    return new BufferedTransaction(
      mode,
      {
        snapshot: session.snapshot(),
        batch: BATCH,
        commit: async (writes) => {
          try {
            if (writes.sets.length > 0 || writes.deletes.length > 0 || writes.ranges.length > 0) {
              await session.begin();
              await flush(client, writes);
            }
          } catch (e) {
            await end("ROLLBACK").catch(() => {});
            throw e;
          }
          await end("COMMIT");
        },
        cancel: () => end("ROLLBACK"),
        releaseIfDropped: true,
      },
      false,
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
