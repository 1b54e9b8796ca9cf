// store/: public surface of the storage layer (catalog, records, indexes, transactions).
export * from "./catalog.js";
export * from "./indexes.js";
export * from "./keys.js";
export * from "./records.js";
export * from "./transaction.js";
