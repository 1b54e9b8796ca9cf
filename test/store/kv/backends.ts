// store/kv/: the backends the contract suite runs on, each with a reason when it cannot run here.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "../../../src/store/kv/file.js";
import { MemoryStore } from "../../../src/store/kv/memory.js";
import { PostgresStore } from "../../../src/store/kv/postgres.js";
import type { KvStore } from "../../../src/store/kv/types.js";
import { postgresSkipReason, startPostgres, type PostgresCluster } from "../../helpers/postgres.js";

export interface Backend {
  readonly name: string;
  /** Why it cannot run on this machine (the suite is skipped and says so). */
  readonly skip?: string;
  /** fast-check runs for the model-based property (fewer where a commit costs an fsync or a round trip). */
  readonly runs: number;
  open(): Promise<KvStore>;
  /** Another node on the same data, for backends shared by several servers. */
  openPeer?(): Promise<KvStore>;
  cleanup?(): Promise<void>;
}

function fileBackend(): Backend {
  let dir: string | undefined;
  return {
    name: "file",
    runs: 60,
    open: async () => FileStore.open((dir = mkdtempSync(join(tmpdir(), "surql-kv-")))),
    cleanup: async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A throwaway cluster per test file (skipped, with the reason, where PostgreSQL is not installed). */
function postgresBackend(): Backend {
  let cluster: PostgresCluster | undefined;
  return {
    name: "postgres",
    skip: postgresSkipReason(),
    runs: 30,
    open: async () => PostgresStore.open((cluster = await startPostgres()).url),
    openPeer: async () => PostgresStore.open(cluster!.url),
    cleanup: async () => cluster?.stop(),
  };
}

export const BACKENDS: Backend[] = [{ name: "memory", runs: 200, open: async () => new MemoryStore() }, fileBackend(), postgresBackend()];
