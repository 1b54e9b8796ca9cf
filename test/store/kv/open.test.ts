// store/kv/open: the PATH argument of `start` — memory, file:PATH or a bare path, postgres://…, and a clear refusal
// of SurrealDB's engines naming what to use instead.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STORAGE_MESSAGES } from "../../../src/errors/catalogue.js";
import { LocalError } from "../../../src/errors/index.js";
import { openStore, parseStoreSpec } from "../../../src/store/kv/open.js";

describe("parseStoreSpec", () => {
  it.each([
    ["memory", { kind: "memory" }],
    ["mem://", { kind: "memory" }],
    ["file:data/db", { kind: "file", path: "data/db" }],
    ["file:///var/lib/surql", { kind: "file", path: "/var/lib/surql" }],
    ["./data", { kind: "file", path: "./data" }],
    ["/var/lib/surql", { kind: "file", path: "/var/lib/surql" }],
    ["postgres://app@db.internal:5432/surql", { kind: "postgres", url: "postgres://app@db.internal:5432/surql" }],
    ["postgresql://app@localhost/surql", { kind: "postgres", url: "postgresql://app@localhost/surql" }],
  ])("%s", (spec, want) => {
    expect(parseStoreSpec(spec)).toEqual(want);
  });

  it.each([
    ["rocksdb://data", "rocksdb", "file:PATH"],
    ["surrealkv://data", "surrealkv", "file:PATH"],
    ["surrealkv+versioned://data", "surrealkv+versioned", "file:PATH"],
    ["tikv://127.0.0.1:2379", "tikv", "postgres://USER@HOST:PORT/DB"],
    ["fdb:/etc/foundationdb/fdb.cluster", "fdb", "postgres://USER@HOST:PORT/DB"],
  ])("%s names what to use instead", (spec, engine, instead) => {
    const error = (() => {
      try {
        parseStoreSpec(spec);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe("Storage");
    expect((error as LocalError).message).toBe(STORAGE_MESSAGES.UnsupportedStore(engine, instead));
  });

  it("refuses an unknown scheme and an empty path", () => {
    expect(() => parseStoreSpec("redis://x")).toThrow(STORAGE_MESSAGES.UnknownStore("redis://x"));
    expect(() => parseStoreSpec("file:")).toThrow(STORAGE_MESSAGES.UnknownStore("file:"));
    expect(() => parseStoreSpec("")).toThrow(STORAGE_MESSAGES.UnknownStore(""));
  });
});

describe("openStore", () => {
  it("opens memory and file stores", async () => {
    const memory = await openStore("memory");
    expect(memory.kind).toBe("memory");
    await memory.close();
    const dir = mkdtempSync(join(tmpdir(), "surql-open-"));
    try {
      const file = await openStore(`file:${dir}`);
      expect(file.kind).toBe("file");
      await file.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
