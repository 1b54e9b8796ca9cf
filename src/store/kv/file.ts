// store/kv/: the `file:PATH` backend — one SQLite file (better-sqlite3) in the folder PATH: a `kv(k, v) WITHOUT
// ROWID` table in WAL mode with synchronous=FULL, so an acknowledged commit survives kill -9 and power loss.
// Transactions read through pooled connections, each holding one SQLite read snapshot; transactions begun with no
// write in between share one (same snapshot, fewer connections), and it stays open while nothing is written, so its
// remembered point reads serve the next transactions too (a snapshot left open pins the WAL: the next write ends it). Commits are grouped: those arriving while the
// previous group is on its way to disk are validated one after the other (occ.ts) and written in one SQLite
// transaction — one fsync for the group — by the writer thread (file-writer.ts), never on the event loop.
// One process owns the folder (a LOCK file with its pid).

import Database from "better-sqlite3";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { STORAGE_MESSAGES } from "../../errors/catalogue.js";
import { LocalError } from "../../errors/index.js";
import type { PendingWrites } from "./buffer.js";
import type { KeyString } from "./bytes.js";
import { FileWriter } from "./file-writer.js";
import { CommitLog } from "./occ.js";
import { BufferedTransaction, type ReadSet, type Snapshot, type StringEntry } from "./transaction.js";
import type { Bytes, KvStore, KvTransaction, TransactionMode } from "./types.js";

const BATCH = 500;
/** Idle read connections kept open for the next transactions. */
const POOL = 8;
/** Point reads and range rows one read snapshot remembers. */
const SNAPSHOT_GETS = 4096;
/** A range read whole in fewer rows than this is remembered too. */
const SMALL_RANGE = 16;

type Db = Database.Database;
type Row = [k: Buffer, v: Buffer];

const buf = (k: KeyString): Buffer => Buffer.from(k, "latin1");
const str = (b: Buffer): KeyString => b.toString("latin1");

function connect(file: string): Db {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 5000");
  return db;
}

/** A connection for one transaction's reads, with its statements prepared once. */
class ReadConnection {
  readonly begin: Database.Statement;
  readonly touch: Database.Statement;
  readonly end: Database.Statement;
  readonly get: Database.Statement<[Buffer], { v: Buffer }>;
  readonly forward: Database.Statement<[Buffer, Buffer, number], Row>;
  readonly backward: Database.Statement<[Buffer, Buffer, number], Row>;

  constructor(readonly db: Db) {
    this.begin = db.prepare("BEGIN");
    this.touch = db.prepare("SELECT 1 FROM kv LIMIT 1");
    this.end = db.prepare("ROLLBACK");
    this.get = db.prepare("SELECT v FROM kv WHERE k = ?");
    // rows as [k, v] arrays (raw): no object per row
    this.forward = db.prepare<[Buffer, Buffer, number], Row>("SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k LIMIT ?").raw(true);
    this.backward = db.prepare<[Buffer, Buffer, number], Row>("SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k DESC LIMIT ?").raw(true);
  }

  /** One read snapshot (a lease): its point reads are remembered while it lasts — the data cannot change under it,
   *  and the same bytes again let the record store reuse the decoded document. */
  snapshot(): Snapshot {
    const seen = new Map<KeyString, Buffer | undefined>();
    // small ranges read whole (an index probe), by `start \uffff end` (latin1 keys never hold \uffff) and direction
    const ranges = [new Map<string, StringEntry[]>(), new Map<string, StringEntry[]>()] as const;
    let remembered = 0;
    const get = (k: KeyString): Buffer | undefined => {
      if (seen.has(k)) return seen.get(k);
      const v = this.get.get(buf(k))?.v;
      if (remembered++ < SNAPSHOT_GETS) seen.set(k, v);
      return v;
    };
    const scan = (start: KeyString, end: KeyString, reverse: boolean, batch: number): Iterable<StringEntry[]> => {
      const memo = ranges[reverse ? 1 : 0];
      const id = `${start}\uffff${end}`;
      const known = memo.get(id);
      if (known !== undefined) return [known];
      const pages = this.scan(start, end, reverse, batch);
      if (batch <= SMALL_RANGE || remembered >= SNAPSHOT_GETS) return pages;
      // the first page tells: a range that fits in one is remembered, a larger one streams on
      const it = pages[Symbol.iterator]();
      const first = it.next();
      if (first.done) return remember(memo, id, []);
      if (first.value.length < SMALL_RANGE) return remember(memo, id, first.value);
      return (function* () {
        yield first.value;
        yield* { [Symbol.iterator]: () => it };
      })();
    };
    const remember = (memo: Map<string, StringEntry[]>, id: string, rows: StringEntry[]): Iterable<StringEntry[]> => {
      remembered += 1 + rows.length;
      memo.set(id, rows);
      return rows.length === 0 ? [] : [rows];
    };
    return { get, getMany: (keys) => keys.map(get), scan };
  }

  /** Pages of LIMIT `batch` (a statement left iterating would lock the connection against the transaction's gets). */
  private *scan(start: KeyString, end: KeyString, reverse: boolean, batch: number): Iterable<StringEntry[]> {
    let [lo, hi] = [buf(start), buf(end)];
    for (;;) {
      const rows = (reverse ? this.backward : this.forward).all(lo, hi, batch);
      if (rows.length > 0) yield rows.map(([k, v]) => [str(k), v, k] as const);
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]![0];
      if (reverse) hi = last;
      else lo = Buffer.concat([last, Buffer.from([0])]);
    }
  }
}

/** A read connection's snapshot and the transactions sharing it. */
interface Lease {
  readonly conn: ReadConnection;
  readonly snapshot: Snapshot;
  readonly generation: number;
  users: number;
}

interface QueuedCommit {
  readonly start: number;
  readonly writes: PendingWrites;
  readonly reads: ReadSet | undefined;
  resolve(): void;
  reject(e: unknown): void;
}

/** Takes PATH/LOCK for this process, or refuses when a live process holds it. */
function lock(dir: string): string {
  const file = join(dir, "LOCK");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new LocalError("Storage", STORAGE_MESSAGES.StoreLocked(dir, pid));
      unlinkSync(file); // left by a process that died: take it over
    }
  }
  throw new LocalError("Storage", STORAGE_MESSAGES.StoreLocked(dir, 0));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class FileStore implements KvStore {
  readonly kind = "file";
  private readonly idle: ReadConnection[] = [];
  private readonly log = new CommitLog();
  private queue: QueuedCommit[] = [];
  /** The group being written, if any: the next one waits for it (validation follows the commit order). */
  private writing: Promise<void> | undefined;
  /** Bumped by every group written: a read snapshot taken at the same generation is the same snapshot. */
  private generation = 0;
  private shared: Lease | undefined;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly file: string,
    private readonly lockFile: string,
    private readonly writer: FileWriter,
  ) {}

  static async open(path: string): Promise<FileStore> {
    const dir = resolve(path);
    mkdirSync(dir, { recursive: true });
    const lockFile = lock(dir);
    try {
      const file = join(dir, "data.sqlite");
      const db = connect(file);
      db.exec("CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID");
      const store = new FileStore(dir, file, lockFile, await FileWriter.start(file));
      store.idle.push(new ReadConnection(db));
      return store;
    } catch (e) {
      unlinkSync(lockFile);
      throw e;
    }
  }

  async begin(mode: TransactionMode): Promise<KvTransaction> {
    // the read snapshot and the start number are taken in one synchronous step
    const lease = this.lease();
    if (mode === "read") {
      const done = async (): Promise<void> => this.release(lease);
      return new BufferedTransaction(mode, { snapshot: lease.snapshot, batch: BATCH, commit: done, cancel: done, releaseIfDropped: true }, false);
    }
    const start = this.log.begin();
    return new BufferedTransaction(
      mode,
      {
        snapshot: lease.snapshot,
        batch: BATCH,
        commit: async (writes, reads) => this.commit(lease, start, writes, reads),
        cancel: async () => {
          this.release(lease);
          this.log.end(start);
        },
        releaseIfDropped: true,
      },
      true,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // the commits already asked for are written first
    while (this.writing || this.queue.length > 0) await (this.writing ?? this.flush());
    this.closed = true;
    this.endIdle();
    for (const conn of this.idle.splice(0)) conn.db.close();
    await this.writer.close();
    unlinkSync(this.lockFile);
  }

  private commit(lease: Lease, start: number, writes: PendingWrites, reads: ReadSet | undefined): Promise<void> {
    this.release(lease);
    // nothing written: its reads were one consistent snapshot, nothing to validate
    if (writes.sets.length === 0 && writes.deletes.length === 0 && writes.ranges.length === 0) {
      this.log.end(start);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ start, writes, reads, resolve, reject });
      // the first of a group starts it at the end of this turn; while a group is being written the next one gathers
      if (this.queue.length === 1 && !this.writing) setImmediate(() => void this.flush());
    });
  }

  /** Validates the queued commits in order, each against those before it, and writes the accepted ones at once. */
  private flush(): Promise<void> {
    if (this.writing) return this.writing;
    const group = this.queue;
    this.queue = [];
    const accepted: QueuedCommit[] = [];
    for (const c of group) {
      try {
        this.log.validate(c.start, c.writes, c.reads);
      } catch (e) {
        this.log.end(c.start);
        c.reject(e);
        continue;
      }
      // recorded now (the next ones validate against it), shown to new transactions once written
      this.log.committed(c.start, c.writes, false);
      accepted.push(c);
    }
    if (accepted.length === 0) return Promise.resolve();
    this.writing = this.writer.write(accepted.map((c) => c.writes)).then(
      () => this.written(accepted, undefined),
      (e: unknown) => this.written(accepted, e),
    );
    return this.writing;
  }

  /** A group is on disk (or failed: the log keeps it, so later transactions may conflict needlessly, never wrongly succeed). */
  private written(group: readonly QueuedCommit[], error: unknown): void {
    this.generation++;
    this.log.publish();
    this.endIdle();
    this.writing = undefined;
    for (const c of group) {
      if (error === undefined) c.resolve();
      else c.reject(error);
    }
    if (this.queue.length > 0) void this.flush();
  }

  get commits(): number {
    return this.generation;
  }

  /** A read snapshot of the current data: the shared one when nothing was written since it was taken. */
  private lease(): Lease {
    const current = this.shared;
    if (current !== undefined && current.generation === this.generation) {
      current.users++;
      return current;
    }
    this.endIdle();
    const conn = this.idle.pop() ?? new ReadConnection(connect(this.file));
    conn.begin.run();
    conn.touch.get();
    return (this.shared = { conn, snapshot: conn.snapshot(), generation: this.generation, users: 1 });
  }

  /** The last user of an outdated snapshot ends it and keeps the connection for a later transaction; the current one
   *  stays open, idle, for the next transactions. */
  private release(lease: Lease): void {
    if (--lease.users > 0) return;
    if (this.shared === lease && lease.generation === this.generation && !this.closed) return;
    this.end(lease);
  }

  /** Ends the shared snapshot if no transaction uses it (a write was published, or it is outdated). */
  private endIdle(): void {
    if (this.shared !== undefined && this.shared.users === 0) this.end(this.shared);
  }

  private end(lease: Lease): void {
    if (this.shared === lease) this.shared = undefined;
    lease.conn.end.run();
    if (!this.closed && this.idle.length < POOL) this.idle.push(lease.conn);
    else lease.conn.db.close();
  }
}
