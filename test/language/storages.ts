// test/language: the storage backends the behaviour files run on — a fresh, empty store per case, removed after.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { FileStore } from "../../src/store/kv/file.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import { PostgresStore } from "../../src/store/kv/postgres.js";
import type { KvStore } from "../../src/store/kv/types.js";
import { postgresSkipReason, startPostgres, type PostgresCluster } from "../helpers/postgres.js";

export interface StorageFactory {
  readonly name: string;
  /** Why it cannot run on this machine (the block is skipped and says so). */
  readonly skip?: string;
  /** Once before the block's cases, once after. */
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** A fresh empty store for one case, and how to close and remove it. */
  open(): Promise<{ store: KvStore; dispose(): Promise<void> }>;
}

export const memoryStorage: StorageFactory = {
  name: "memory",
  open: async () => ({ store: new MemoryStore(), dispose: async () => {} }),
};

/** A temp folder per case. */
export const fileStorage: StorageFactory = {
  name: "file",
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "surql-lang-"));
    const store = await FileStore.open(dir);
    return {
      store,
      dispose: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** One throwaway cluster for the block, a fresh database per case (the store keeps one unprefixed kv table). */
export function postgresStorage(): StorageFactory {
  let cluster: PostgresCluster | undefined;
  let admin: pg.Client | undefined;
  let n = 0;
  return {
    name: "postgres",
    skip: postgresSkipReason(),
    setup: async () => {
      cluster = await startPostgres();
      admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
    },
    teardown: async () => {
      await admin?.end();
      await cluster?.stop();
    },
    open: async () => {
      const db = `case_${++n}`;
      await admin!.query(`CREATE DATABASE ${db}`);
      const store = await PostgresStore.open(cluster!.url.replace(/\/postgres$/, `/${db}`));
      return {
        store,
        dispose: async () => {
          await store.close();
          await admin!.query(`DROP DATABASE ${db}`);
        },
      };
    },
  };
}
