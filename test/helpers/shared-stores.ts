// Stores several nodes can share in one test process: one memory store, and connections to one PostgreSQL database
// (a throwaway cluster, skipped where PostgreSQL is not installed). Call `close` in afterAll.

import { MemoryStore } from "../../src/store/kv/memory.js";
import { PostgresStore } from "../../src/store/kv/postgres.js";
import type { KvStore } from "../../src/store/kv/types.js";
import { createDatabase, postgresSkipReason, startPostgres, type PostgresCluster } from "./postgres.js";

/** A kind of shared store: `open` makes a new one and returns how one more node connects to it. */
export interface SharedStore {
  readonly name: string;
  readonly skip?: string;
  open(): Promise<() => Promise<KvStore>>;
}

export function sharedStores(): { readonly stores: readonly SharedStore[]; close(): Promise<void> } {
  let cluster: PostgresCluster | undefined;
  const opened: KvStore[] = [];
  const stores: SharedStore[] = [
    {
      name: "memory",
      open: async () => {
        const store = new MemoryStore();
        return async () => store;
      },
    },
    {
      name: "PostgreSQL",
      skip: postgresSkipReason(),
      open: async () => {
        cluster ??= await startPostgres({ fsync: false });
        const url = await createDatabase(cluster, "n");
        return async () => {
          const s = await PostgresStore.open(url);
          opened.push(s);
          return s;
        };
      },
    },
  ];
  return {
    stores,
    close: async () => {
      for (const s of opened) await s.close();
      await cluster?.stop();
    },
  };
}
