// POST /explain and RPC `explain`: a query run as another identity — a dry run, its transaction always cancelled — with
// every PERMISSIONS decision behind it (README "Explaining permissions"). For system users who may view the database's
// definitions only (an explanation reveals rules), and only as identities that need no secret and reach no further
// than the caller: anonymous, ROLE@LEVEL at or below the caller's, or record ACCESS as ID (an existing record).

import { parse } from "../../../grammar/index.js";
import type { Statement } from "../../ast/nodes.js";
import type { Decision } from "../../doc/decide.js";
import { WIRE_MESSAGES } from "../../errors/catalogue.js";
import { NotAllowed, queryError } from "../../errors/index.js";
import { boundedText } from "../../exec/query-text.js";
import { sessionMay } from "../../exec/rbac.js";
import { newSession, type Actor, type Session } from "../../exec/session.js";
import { IdentitySpecError, parseIdentity, type IdentitySpec, type Level, type RoleName } from "../../iam/identity-spec.js";
import { isValueObject, type Value, type ValueObject } from "../../value/types.js";
import { DecodeError, decodeJsonBody, encodeValue, MIME } from "../codec/index.js";
import { DATABASE_ERROR, RpcError } from "../rpc/errors.js";
import type { ServerContext } from "../types.js";
import { INVALID_BODY, readBody, send, sendBadRequest, sendError, type RouteRequest } from "./common.js";

/** What the caller asks: the identity spec, the query, its variables. */
export interface ExplainRequest {
  readonly as: string;
  readonly query: string;
  readonly vars: ValueObject;
}

const refused = (message: string): RpcError => new RpcError(DATABASE_ERROR, message);

const ROLE_RANK: Record<RoleName, number> = { VIEWER: 1, EDITOR: 2, OWNER: 3 };
const LEVEL_RANK: Record<Level, number> = { db: 1, ns: 2, root: 3 };
const ACTOR_LEVEL: Record<string, Level | undefined> = { Database: "db", Namespace: "ns", Root: "root" };

/** With authentication off, anyone may do everything: the caller counts as a root OWNER. */
const UNAUTHENTICATED_OWNER: Actor = { level: "Root", ns: undefined, db: undefined, id: "", roles: ["OWNER"] };

/** 1. The caller: a system user who may view the database's definitions (VIEWER or more on root, its ns or its db). */
function callerOf(ctx: ServerContext, session: Session): { actor: Actor; ns: string; db: string } {
  const { ns, db } = session;
  if (ns === undefined || ns === "") throw queryError("NsEmpty");
  if (db === undefined || db === "") throw queryError("DbEmpty");
  const actor = !ctx.authEnabled && session.actor.level === "No" ? UNAUTHENTICATED_OWNER : session.actor;
  if (ACTOR_LEVEL[actor.level] === undefined || !sessionMay({ ...session, actor }, true, "View", { kind: "Database", level: "DATABASE", ns, db })) throw new NotAllowed();
  return { actor, ns, db };
}

/** 2. The explained identity's session on ns/db, never reaching further than the caller's. */
async function sessionOf(ctx: ServerContext, caller: Actor, spec: IdentitySpec, ns: string, db: string): Promise<Session> {
  switch (spec.kind) {
    case "anonymous":
      return newSession({ ns, db });
    case "root":
    case "role": {
      const [role, level] = spec.kind === "root" ? (["OWNER", "root"] as const) : [spec.role, spec.level];
      const top = Math.max(0, ...caller.roles.map((r) => ROLE_RANK[r as RoleName] ?? 0));
      if (ROLE_RANK[role] > top || LEVEL_RANK[level] > LEVEL_RANK[ACTOR_LEVEL[caller.level]!]) throw refused(WIRE_MESSAGES.ExplainAboveCaller);
      const actor: Actor = { level: level === "root" ? "Root" : level === "ns" ? "Namespace" : "Database", ns: level === "root" ? undefined : ns, db: level === "db" ? db : undefined, id: `${role.toLowerCase()}@${level}`, roles: [role] };
      return newSession({ ns, db, actor });
    }
    case "bound": {
      if (ctx.iam.bindRecord === undefined) throw refused(WIRE_MESSAGES.ExplainIdentity);
      // only a record that exists (read with the root's rights, nothing written)
      const owner = newSession({ ns, db, actor: UNAUTHENTICATED_OWNER });
      const [found] = await ctx.engine.execute("SELECT VALUE id FROM $rid", owner, { rid: spec.record });
      if (found?.status !== "OK" || !Array.isArray(found.result) || found.result.length === 0) throw refused(WIRE_MESSAGES.ExplainNoRecord);
      const session = newSession({ ns, db });
      await ctx.iam.bindRecord(session, ns, db, spec.access, spec.record);
      return session;
    }
    case "user":
    case "record":
    case "token":
      throw refused(WIRE_MESSAGES.ExplainIdentity);
  }
}

/** Password hashes (PHC strings) a caller who may not define users does not see, as INFO hides them. */
const HASH = /\$(argon2(id|i|d)|2[aby]|pbkdf2[-\w]*|scrypt)\$[^\s'"`;)}\]]+/g;
const REDACTED = "[REDACTED]";

function redacted(d: Decision): Decision {
  const scrub = (s: string): string => s.replace(HASH, REDACTED);
  const values = d.values === undefined ? undefined : Object.fromEntries(Object.entries(d.values).map(([k, v]) => [k, scrub(v as string)]));
  return { ...d, clause: scrub(d.clause), ...(values ? { values } : {}), ...(d.error !== undefined ? { error: scrub(d.error) } : {}) };
}

/** A decision as a SurrealQL object: absent fields left out, `statement` an int. */
function decisionValue(d: Decision, statement: number): ValueObject {
  return { statement: BigInt(statement), ...(JSON.parse(JSON.stringify(d)) as ValueObject) };
}

/**
 * Explains `req` for `session`'s caller: the query's answers (every one "not executed due to a cancelled transaction":
 * nothing is kept) and every decision, each with `statement`, the index of its answer.
 */
export async function explainFor(ctx: ServerContext, session: Session, req: ExplainRequest, signal?: AbortSignal): Promise<ValueObject> {
  const { actor, ns, db } = callerOf(ctx, session);
  let spec: IdentitySpec;
  try {
    spec = parseIdentity(req.as);
  } catch (e) {
    if (e instanceof IdentitySpecError) throw refused(e.message);
    throw e;
  }
  const as = await sessionOf(ctx, actor, spec, ns, db);
  // 3. a dry run: the statements inside one transaction that is always cancelled
  const stmts = parse(boundedText(req.query, as, ctx.authEnabled), { compat: ctx.compat });
  if (stmts.some((s) => s.kind === "Begin" || s.kind === "Commit" || s.kind === "Cancel")) throw refused(WIRE_MESSAGES.ExplainTransaction);
  const wrapped: Statement[] = [{ kind: "Begin" }, ...stmts, { kind: "Cancel" }];
  // 4. every decision as plain data; a caller who may not define users sees no password hash (as INFO hides them)
  const decisions: Value[] = [];
  const redact = !sessionMay({ ...session, actor }, true, "Edit", { kind: "Actor", level: "DATABASE", ns, db });
  const explain = (d: Decision, statement: number): void => void decisions.push(decisionValue(redact ? redacted(d) : d, statement));
  const responses = await ctx.engine.execute(wrapped, as, req.vars, { ...(signal ? { signal } : {}), explain });
  return { results: responses.map((r) => ({ result: r.result, status: r.status, time: r.time })), decisions };
}

/** The request from RPC params `[as, query, vars?]` or an HTTP body `{ as, query, vars? }`. */
export function explainRequest(as: Value, query: Value, vars: Value): ExplainRequest | undefined {
  if (typeof as !== "string" || typeof query !== "string") return undefined;
  if (vars !== undefined && vars !== null && !isValueObject(vars)) return undefined;
  return { as, query, vars: isValueObject(vars) ? vars : {} };
}

/** POST /explain: JSON in, JSON out (`{ results, decisions }`); refusals answer 400 / 403 with SurrealDB's body. */
export async function handleExplain(r: RouteRequest): Promise<void> {
  try {
    // the caller's rights first: nothing is read for a caller who may not explain
    callerOf(r.ctx, r.session);
    let body: Value;
    try {
      body = decodeJsonBody(await readBody(r.req, r.ctx.limits.sqlBody));
    } catch (e) {
      if (e instanceof DecodeError) return sendBadRequest(r.res, INVALID_BODY);
      throw e;
    }
    const req = isValueObject(body) ? explainRequest(body["as"], body["query"], body["vars"]) : undefined;
    if (req === undefined) return sendBadRequest(r.res, WIRE_MESSAGES.ExplainBody);
    send(r.res, 200, encodeValue("json", await explainFor(r.ctx, r.session, req, r.signal), r.ctx.compat), MIME.json);
  } catch (e) {
    if (e instanceof RpcError) return sendBadRequest(r.res, e.message);
    sendError(r, e);
  }
}
