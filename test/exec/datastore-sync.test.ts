// exec/datastore: on a store only this process writes (memory, file:), a catalog check reads the store only when a
// commit happened since the last one — another engine's commit on the same store is still seen.

import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import type { KvStore } from "../../src/store/kv/types.js";
import { rootSession, run } from "./helpers.js";

/** A memory store that counts the transactions begun on it. */
function counting(): { store: KvStore; begun: () => number } {
  const store = new MemoryStore();
  let n = 0;
  const begin = store.begin.bind(store);
  store.begin = (mode) => {
    n++;
    return begin(mode);
  };
  return { store, begun: () => n };
}

describe("Datastore.syncCatalog", () => {
  it("reads nothing when no commit happened since the last check, and reloads after another engine's commit", async () => {
    const { store, begun } = counting();
    const a = new Datastore({ storage: store, auth: false });
    const b = new Datastore({ storage: store, auth: false });
    await run(a, rootSession(), "RETURN 1");
    const before = begun();
    await a.syncCatalog();
    expect(begun()).toBe(before);
    await run(b, rootSession(), "DEFINE TABLE t SCHEMALESS");
    await a.syncCatalog();
    expect(begun()).toBeGreaterThan(before + 1);
    expect(a.catalog.table("test", "test", "t")).toBeDefined();
  });
});
