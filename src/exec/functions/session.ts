// session:: builtins: read the caller's session (ns, db, auth fields) per compat level.

import type { Value } from "../../value/types.js";
import { fn, type BuiltinTable } from "./registry.js";

const orNone = (v: Value): Value => (v === undefined ? undefined : v);

export const sessionFunctions: BuiltinTable = {
  "session::ns": fn([], (_a, ctx) => orNone(ctx.session.ns)),
  "session::db": fn([], (_a, ctx) => orNone(ctx.session.db)),
  "session::id": fn([], (_a, ctx) => orNone(ctx.session.id)),
  "session::ip": fn([], (_a, ctx) => orNone(ctx.session.ip)),
  "session::origin": fn([], (_a, ctx) => orNone(ctx.session.origin)),
  "session::token": fn([], (_a, ctx) => orNone(ctx.session.tk)),
  "session::ac": fn([], (_a, ctx) => orNone(ctx.session.ac), { compat: 2 }),
  "session::rd": fn([], (_a, ctx) => orNone(ctx.session.rd), { compat: 2 }),
  "session::sc": fn([], (_a, ctx) => orNone(ctx.session.ac), { compat: 1 }),
  "session::sd": fn([], (_a, ctx) => orNone(ctx.session.rd), { compat: 1 }),
};
