// store/kv/: the `file:` backend's writer — one SQLite connection in a worker thread that writes each group of
// commits in one transaction (synchronous=FULL: the WAL's fsync, and every checkpoint, happen there), so a commit's
// disk wait never blocks the event loop. SQLite makes a commit visible to the other connections only once it is
// written and synced, so no reader on the main thread ever sees data that a crash could take back.

import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { PendingWrites } from "./buffer.js";
import type { KeyString } from "./bytes.js";

/** The worker's body (CommonJS, evaluated): open the writer, then one reply per group of writes. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
db.pragma("busy_timeout = 5000");
const del = db.prepare("DELETE FROM kv WHERE k = ?");
const delRange = db.prepare("DELETE FROM kv WHERE k >= ? AND k < ?");
const put = db.prepare("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)");
const key = (k) => Buffer.from(k, "latin1");
// each commit's range deletes, deletes, then sets, in commit order
const write = db.transaction((group) => {
  for (const w of group) {
    for (const [s, e] of w.ranges) delRange.run(key(s), key(e));
    for (const k of w.deletes) del.run(key(k));
    for (const [k, v] of w.sets) put.run(key(k), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }
});
parentPort.on("message", (group) => {
  if (group === null) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    write.immediate(group);
    parentPort.postMessage({ ok: true });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String((e && e.message) || e) });
  }
});
parentPort.postMessage({ ok: true });
`;

/** A value as sent to the worker: its own bytes only (a view would carry its whole backing buffer along). */
const own = (v: Uint8Array): Uint8Array => (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength ? v : v.slice());

function wire(writes: PendingWrites): PendingWrites {
  return { ranges: writes.ranges, deletes: writes.deletes, sets: writes.sets.map(([k, v]): readonly [KeyString, Uint8Array] => [k, own(v)]) };
}

/** Writes groups of commits one at a time in the worker; `write` resolves once the group is durable. */
export class FileWriter {
  private readonly worker: Worker;
  private readonly waiting: { resolve(): void; reject(e: Error): void }[] = [];
  private failure: Error | undefined;

  private constructor(file: string) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER, { eval: true, workerData: { file, driver } });
    this.worker.on("message", (reply: { ok: boolean; error?: string }) => {
      const next = this.waiting.shift();
      if (this.waiting.length === 0) this.worker.unref();
      if (reply.ok) next?.resolve();
      else next?.reject(new Error(reply.error));
    });
    const fail = (e: Error): void => {
      this.failure ??= e;
      for (const w of this.waiting.splice(0)) w.reject(e);
    };
    this.worker.on("error", fail);
    this.worker.on("exit", () => fail(new Error("the file: store's writer has stopped")));
  }

  /** Starts the worker and waits until its connection is open. */
  static async start(file: string): Promise<FileWriter> {
    const writer = new FileWriter(file);
    await writer.reply();
    return writer;
  }

  /** One SQLite transaction for the group; resolves once it is on disk (and visible to new read snapshots). */
  write(group: readonly PendingWrites[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const done = this.reply();
    this.worker.postMessage(group.map(wire));
    return done;
  }

  async close(): Promise<void> {
    if (this.failure) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.ref();
    this.worker.postMessage(null);
    await exited;
  }

  /** The next reply; the worker keeps the process alive only while a reply is awaited. */
  private reply(): Promise<void> {
    this.worker.ref();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }
}
