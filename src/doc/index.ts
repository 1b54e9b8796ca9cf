// doc/: public surface of the per-record pipeline.
export * from "./create.js";
export * from "./decide.js";
export * from "./delete.js";
export * from "./env.js";
export * from "./events.js";
export * from "./fields.js";
export * from "./indexes.js";
export * from "./paths.js";
export * from "./permissions.js";
export * from "./pipeline.js";
export * from "./select.js";
export * from "./update.js";
export * from "./write.js";
