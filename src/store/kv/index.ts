// store/kv/: public surface of the key-value layer — the contract, the keys, the document codec, openStore.
export * from "./types.js";
export { prefixRange, prefixEnd, compareKeys } from "./bytes.js";
export * from "./keys.js";
export { decodeDocument, encodeDocument } from "./codec.js";
export { MemoryStore } from "./memory.js";
export { openStore, parseStoreSpec, type StoreSpec } from "./open.js";
