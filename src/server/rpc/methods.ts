// One handler per RPC method (protocol.md §7.3): params ⇒ engine / IAM calls ⇒ the v1 / v2 result shape.

import { checkSettable } from "../../exec/protected.js";
import { isExpired, type Session } from "../../exec/session.js";
import { ExpiredSession, queryError } from "../../errors/index.js";
import { sizeWithin } from "../../value/size.js";
import { RecordId, RecordIdRange, Table, isValueObject, type Value, type ValueObject } from "../../value/types.js";
import type { ServerContext, SigninResult } from "../types.js";
import { messageLimits, queriesAllowed, serverVersion } from "../types.js";
import { RpcError, databaseError, invalidParams, methodNotFound } from "./errors.js";
import { explainFor, explainRequest } from "../routes/explain.js";
import type { SessionGate } from "./gate.js";

export interface RpcCall {
  readonly ctx: ServerContext;
  readonly session: Session;
  /** HTTP POST /rpc keeps no state between calls: no let / set / unset, no live queries. */
  readonly transport: "ws" | "http";
  /** Aborted when the client goes away (the request aborted, the socket closed): its queries are cancelled. */
  readonly signal?: AbortSignal;
  /** A WebSocket's session gate (rpc/gate.ts): a query keeps the session it started with. */
  readonly gate?: SessionGate;
}

type Handler = (call: RpcCall, params: Value[]) => Promise<Value> | Value;

/** Methods that still work on an expired session (auth.md §4.5). */
const ALLOWED_WHEN_EXPIRED = new Set(["ping", "version", "use", "invalidate", "reset", "signin", "signup", "authenticate", "refresh", "revoke"]);

/** Methods SurrealDB 1.x does not have. */
const V2_ONLY = new Set(["reset", "upsert", "insert_relation", "graphql", "refresh", "revoke"]);

function exactly(params: Value[], n: number): void {
  if (params.length !== n) throw invalidParams();
}

function between(params: Value[], min: number, max: number): void {
  if (params.length < min || params.length > max) throw invalidParams();
}

/** A string in `what` position names a table. */
function subject(v: Value): Value {
  return typeof v === "string" ? new Table(v) : v;
}

/** One record (not a table, not a key range). */
function isSingle(v: Value): boolean {
  return v instanceof RecordId && !(v.id instanceof RecordIdRange);
}

function connectionVars(session: Session): ValueObject {
  const out: ValueObject = {};
  for (const [k, v] of session.params) out[k] = v;
  return out;
}

/** Run one statement and return its result, raising a statement error as the RPC error. */
async function runOne(call: RpcCall, sql: string, vars: ValueObject): Promise<Value> {
  const responses = await call.ctx.engine.execute(sql, call.session, { ...connectionVars(call.session), ...vars }, { signal: call.signal });
  const first = responses[0];
  if (first === undefined) return undefined;
  if (first.status === "ERR") throw databaseError(first.result);
  return first.result;
}

function firstOf(v: Value): Value {
  return Array.isArray(v) ? v[0] : v;
}

/** v1: first element when `what` is a record id; v2 likewise (or `alsoTables` for v2 create). */
function shape(call: RpcCall, what: Value, result: Value, alsoTables = false): Value {
  if (isSingle(what)) return firstOf(result);
  if (alsoTables && call.ctx.compat === 2 && what instanceof Table) return firstOf(result);
  return result;
}

/** A bare token, or `{ access, refresh }` from an access WITH REFRESH (SurrealDB's shape, which the SDK reads too). */
function tokenOf(r: SigninResult): Value {
  if (typeof r === "string") return r;
  if (r && typeof r === "object" && typeof r.token === "string") return typeof r.refresh === "string" ? { access: r.token, refresh: r.refresh } : r.token;
  return undefined;
}

/** The refresh token of a `{ access, refresh }` param (RPC refresh / revoke). */
function refreshParam(params: Value[]): string {
  exactly(params, 1);
  const tokens = params[0];
  if (!isValueObject(tokens) || typeof tokens["refresh"] !== "string") throw invalidParams();
  return tokens["refresh"];
}

function credentials(params: Value[]): ValueObject {
  exactly(params, 1);
  const vars = params[0];
  if (!isValueObject(vars)) throw invalidParams();
  return vars;
}

function isNoneOrNull(v: Value): boolean {
  return v === undefined || v === null;
}

/** Data for CONTENT / MERGE: absent, NONE or NULL means no clause (as SurrealDB). */
function dataClause(params: Value[], index: number, keyword: string): string {
  return isNoneOrNull(params[index]) ? "" : ` ${keyword} $data`;
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$/;
const VERSION_RE = /^[0-9A-Za-z._-]+$/;

const handlers: Record<string, Handler> = {
  ping: () => undefined,

  version: (call, params) => {
    exactly(params, 0);
    return serverVersion(call.ctx.compat);
  },

  use: (call, params) => {
    exactly(params, 2);
    const [ns, db] = params;
    const s = call.session;
    if (call.ctx.compat === 1) {
      if (typeof ns === "string") s.ns = ns;
      if (typeof db === "string") s.db = db;
      return undefined;
    }
    for (const v of [ns, db]) if (v !== undefined && v !== null && typeof v !== "string") throw invalidParams();
    if (ns === null) s.ns = undefined;
    else if (typeof ns === "string") s.ns = ns;
    if (db === null) s.db = undefined;
    else if (typeof db === "string") s.db = db;
    return undefined;
  },

  info: (call) => call.ctx.iam.info(call.session),

  signup: async (call, params) => tokenOf(await call.ctx.iam.signup(call.session, credentials(params))),

  signin: async (call, params) => tokenOf(await call.ctx.iam.signin(call.session, credentials(params))),

  refresh: async (call, params) => {
    const token = refreshParam(params);
    if (call.ctx.iam.refresh === undefined) throw methodNotFound();
    return tokenOf(await call.ctx.iam.refresh(call.session, token));
  },

  revoke: async (call, params) => {
    const token = refreshParam(params);
    if (call.ctx.iam.revoke === undefined) throw methodNotFound();
    await call.ctx.iam.revoke(call.session, token);
    return null;
  },

  authenticate: async (call, params) => {
    exactly(params, 1);
    const token = params[0];
    if (typeof token !== "string") throw invalidParams();
    await call.ctx.iam.authenticate(call.session, token);
    return undefined;
  },

  invalidate: async (call) => {
    await call.ctx.iam.invalidate(call.session);
    return undefined;
  },

  reset: async (call) => {
    await call.ctx.iam.reset(call.session);
    return undefined;
  },

  let: (call, params) => {
    if (call.transport === "http") throw methodNotFound();
    between(params, 1, 2);
    const [name, value] = params;
    if (typeof name !== "string") throw invalidParams();
    checkSettable(name, call.ctx.compat);
    if (value === undefined) forgetConnectionVar(call.session, name);
    else {
      checkConnectionVars(call, name, value);
      call.session.params.set(name, value);
    }
    return null;
  },

  unset: (call, params) => {
    if (call.transport === "http") throw methodNotFound();
    exactly(params, 1);
    const [name] = params;
    if (typeof name !== "string") throw invalidParams();
    forgetConnectionVar(call.session, name);
    return null;
  },

  query: async (call, params) => {
    between(params, 1, 2);
    const [sql, vars] = params;
    if (typeof sql !== "string") throw invalidParams();
    if (!isNoneOrNull(vars) && !isValueObject(vars)) throw invalidParams();
    const merged = { ...(isValueObject(vars) ? vars : {}), ...connectionVars(call.session) };
    const responses = await call.ctx.engine.execute(sql, call.session, merged, { signal: call.signal });
    return responses.map((r) => ({ result: r.result, status: r.status, time: r.time }));
  },

  explain: async (call, params) => {
    between(params, 2, 3);
    const req = explainRequest(params[0], params[1], params[2]);
    if (req === undefined) throw invalidParams();
    return explainFor(call.ctx, call.session, req, call.signal);
  },

  select: async (call, params) => {
    exactly(params, 1);
    const what = subject(params[0]);
    return shape(call, what, await runOne(call, "SELECT * FROM $what", { what }));
  },

  create: async (call, params) => {
    between(params, 1, 2);
    const what = subject(params[0]);
    const sql = `CREATE $what${dataClause(params, 1, "CONTENT")} RETURN AFTER`;
    return shape(call, what, await runOne(call, sql, { what, data: params[1] }), true);
  },

  insert: async (call, params) => {
    exactly(params, 2);
    const [rawWhat, data] = params;
    if (isNoneOrNull(rawWhat)) {
      if (call.ctx.compat === 1) throw invalidParams();
      return runOne(call, "INSERT $data RETURN AFTER", { data });
    }
    return runOne(call, "INSERT INTO $what $data RETURN AFTER", { what: subject(rawWhat), data });
  },

  insert_relation: async (call, params) => {
    exactly(params, 2);
    const [rawWhat, data] = params;
    if (isNoneOrNull(rawWhat)) return runOne(call, "INSERT RELATION $data RETURN AFTER", { data });
    return runOne(call, "INSERT RELATION INTO $what $data RETURN AFTER", { what: subject(rawWhat), data });
  },

  update: async (call, params) => {
    between(params, 1, 2);
    const what = subject(params[0]);
    const sql = `UPDATE $what${dataClause(params, 1, "CONTENT")} RETURN AFTER`;
    return shape(call, what, await runOne(call, sql, { what, data: params[1] }));
  },

  upsert: async (call, params) => {
    between(params, 1, 2);
    const what = subject(params[0]);
    const sql = `UPSERT $what${dataClause(params, 1, "CONTENT")} RETURN AFTER`;
    return shape(call, what, await runOne(call, sql, { what, data: params[1] }));
  },

  merge: async (call, params) => {
    between(params, 1, 2);
    const what = subject(params[0]);
    const sql = `UPDATE $what${dataClause(params, 1, "MERGE")} RETURN AFTER`;
    return shape(call, what, await runOne(call, sql, { what, data: params[1] }));
  },

  patch: async (call, params) => {
    between(params, 1, 3);
    const what = subject(params[0]);
    const diff = params[2] === true;
    // SurrealDB always sends the clause: missing patches fail with "Operations must be an array"
    const sql = `UPDATE $what PATCH $data RETURN ${diff ? "DIFF" : "AFTER"}`;
    return shape(call, what, await runOne(call, sql, { what, data: params[1] }));
  },

  delete: async (call, params) => {
    exactly(params, 1);
    const what = subject(params[0]);
    return shape(call, what, await runOne(call, "DELETE $what RETURN BEFORE", { what }));
  },

  relate: async (call, params) => {
    between(params, 3, 4);
    const [from, rawKind, to] = params;
    const kind = subject(rawKind);
    const sql = `RELATE $from->$kind->$to${dataClause(params, 3, "CONTENT")}`;
    const result = await runOne(call, sql, { from, kind, to, data: params[3] });
    const single = call.ctx.compat === 1 ? isSingle(kind) : isSingle(from) && isSingle(to);
    return single ? firstOf(result) : result;
  },

  run: async (call, params) => {
    between(params, 1, 3);
    const [name, version, args] = params;
    if (typeof name !== "string" || !NAME_RE.test(name)) throw invalidParams();
    if (!isNoneOrNull(version) && (typeof version !== "string" || !VERSION_RE.test(version))) throw invalidParams();
    if (!isNoneOrNull(args) && !Array.isArray(args)) throw invalidParams();
    const list = Array.isArray(args) ? args : [];
    const vars: ValueObject = {};
    list.forEach((a, i) => (vars[`arg${i}`] = a));
    const call_ = `(${list.map((_a, i) => `$arg${i}`).join(", ")})`;
    let sql: string;
    if (name.startsWith("ml::")) {
      if (typeof version !== "string") throw invalidParams();
      sql = `RETURN ${name}<${version}>${call_}`;
    } else sql = `RETURN ${name}${call_}`;
    return runOne(call, sql, vars);
  },

  live: (call, params) => {
    between(params, 1, 2);
    throw databaseError("Live Query was made, but is not supported");
  },

  kill: (call, params) => {
    exactly(params, 1);
    throw databaseError("Live Query was made, but is not supported");
  },

  graphql: () => {
    throw new RpcError(-32000, "Method not allowed");
  },
};
handlers["set"] = handlers["let"];

/** Methods a session denied queries keeps. */
const WITHOUT_QUERY = new Set(["ping", "info", "signup", "signin", "authenticate", "invalidate", "reset", "version"]);

/** Find and run a method on a call; throws RpcError / SurrealError for the dispatcher to encode. */
export async function invokeMethod(call: RpcCall, method: string, params: Value[]): Promise<Value> {
  if (!Object.prototype.hasOwnProperty.call(handlers, method)) throw methodNotFound();
  if (call.ctx.compat === 1 && V2_ONLY.has(method)) throw methodNotFound();
  try {
    if (!ALLOWED_WHEN_EXPIRED.has(method) && isExpired(call.session, call.ctx.engine.clock)) throw new ExpiredSession();
    // --deny-arbitrary-query: such a session may only sign in and manage itself (as SurrealDB 2.x)
    if (!WITHOUT_QUERY.has(method) && !queriesAllowed(call.ctx, call.session)) throw new RpcError(-32000, "Method not allowed");
    call.ctx.iam.seen?.(call.session);
    return await handlers[method](call, params);
  } catch (e) {
    if (e instanceof ExpiredSession) call.ctx.audit.sessionExpired(call.session);
    throw e;
  }
}

/**
 * A connection's variables together hold at most one message of its session (64 KiB before signin, 1 MiB for record
 * users, the frame limit for system users): `let` past that is refused and changes nothing (attack pass 4, B6: 8,064
 * anonymous lets of 60 KB ran the server out of memory). The total is kept as variables come and go, so a `let` costs
 * the size of its own value.
 */
function checkConnectionVars(call: RpcCall, name: string, value: Value): void {
  const limit = messageLimits(call.ctx, call.session, "ws").bytes;
  const book = varBook(call.session, limit);
  const size = name.length + (sizeWithin(value, limit) ?? Infinity);
  const total = book.total - (book.sizes.get(name) ?? 0) + size;
  if (total > limit) throw queryError("ConnectionVarsTooLarge", limit);
  book.sizes.set(name, size);
  book.total = total;
}

/** Each session's variable sizes and their total; rebuilt when its variables changed elsewhere (reset, invalidate, close). */
const varBooks = new WeakMap<Session, { readonly sizes: Map<string, number>; total: number }>();

function varBook(session: Session, limit: number): { readonly sizes: Map<string, number>; total: number } {
  const book = varBooks.get(session);
  if (book !== undefined && book.sizes.size === session.params.size) return book;
  const sizes = new Map<string, number>();
  let total = 0;
  for (const [k, v] of session.params) {
    const size = k.length + (sizeWithin(v, limit) ?? Infinity);
    sizes.set(k, size);
    total += size;
  }
  const rebuilt = { sizes, total };
  varBooks.set(session, rebuilt);
  return rebuilt;
}

/** `unset` (or `let` without a value): the variable and its size go. */
function forgetConnectionVar(session: Session, name: string): void {
  const book = varBooks.get(session);
  const size = book?.sizes.get(name);
  if (book !== undefined && size !== undefined && session.params.has(name)) {
    book.sizes.delete(name);
    book.total -= size;
  }
  session.params.delete(name);
}
