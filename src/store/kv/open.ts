// store/kv/: the PATH argument of `surql-auth start [PATH]` → a key-value store (memory, file:PATH, postgres://…).

import { STORAGE_MESSAGES } from "../../errors/catalogue.js";
import { LocalError } from "../../errors/index.js";
import type { KvStore } from "./types.js";

export type StoreSpec = { kind: "memory" } | { kind: "file"; path: string } | { kind: "postgres"; url: string };

/** SurrealDB's engines we do not carry, and what to use in their place. */
const INSTEAD: Record<string, string> = {
  rocksdb: "file:PATH",
  surrealkv: "file:PATH",
  "surrealkv+versioned": "file:PATH",
  speedb: "file:PATH",
  tikv: "postgres://USER@HOST:PORT/DB",
  fdb: "postgres://USER@HOST:PORT/DB",
  indxdb: "memory",
};

export function parseStoreSpec(spec: string): StoreSpec {
  const s = spec.trim();
  if (s === "memory" || s === "mem://") return { kind: "memory" };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s)?.[1]?.toLowerCase();
  // a bare path (a one-letter scheme is a Windows drive)
  if (scheme === undefined || scheme.length === 1) {
    if (s === "") throw new LocalError("Storage", STORAGE_MESSAGES.UnknownStore(spec));
    return { kind: "file", path: s };
  }
  if (scheme === "file") {
    const path = s.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (path === "" || path === "//") throw new LocalError("Storage", STORAGE_MESSAGES.UnknownStore(spec));
    return { kind: "file", path };
  }
  if (scheme === "postgres" || scheme === "postgresql") return { kind: "postgres", url: s };
  const instead = INSTEAD[scheme];
  if (instead !== undefined) throw new LocalError("Storage", STORAGE_MESSAGES.UnsupportedStore(scheme, instead));
  throw new LocalError("Storage", STORAGE_MESSAGES.UnknownStore(spec));
}

/** Opens the store `spec` names; the durable backends load their drivers only when asked for. */
export async function openStore(spec: string): Promise<KvStore> {
  const parsed = parseStoreSpec(spec);
  switch (parsed.kind) {
    case "memory": {
      const { MemoryStore } = await import("./memory.js");
      return new MemoryStore();
    }
    case "file": {
      const { FileStore } = await import("./file.js");
      return FileStore.open(parsed.path);
    }
    case "postgres": {
      const { PostgresStore } = await import("./postgres.js");
      return PostgresStore.open(parsed.url);
    }
  }
}
