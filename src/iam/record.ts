// Scope (v1) and record-access (v2) signin / signup: run the clause as a privileged session, then issue a token.

import type { Expr } from "../ast/nodes.js";
import { InvalidAuth, ThrownError } from "../errors/index.js";
import type { StoredAccess } from "../exec/contract.js";
import { shadowPasswordCompares } from "../exec/functions/crypto.js";
import { checkSettableAll } from "../exec/protected.js";
import type { Session } from "../exec/session.js";
import { isValueObject, RecordId, type Value, type ValueObject } from "../value/types.js";
import { claimsToValue } from "./claims.js";
import { definitionRef, getAccess, privilegedSession, type IamContext } from "./context.js";
import {
  accessMethodMismatch,
  accessMissing,
  bearerKeyMissing,
  clauseMissing,
  noRecordReturned,
  queryFailed,
} from "./errors.js";
import { equalTimeSignin } from "./equal-time.js";
import { HOUR_NANOS, prepareClaims, signClaims } from "./issue.js";
import { recordIdText } from "./recordid.js";
import { identitySince } from "./identity.js";
import { applyAuth, expiryAfter, type SessionAuth } from "./session.js";
import { credentialSecrets, scrub } from "./audit.js";
import type { CredentialGate } from "./throttle.js";
import { accountBucket } from "./throttle-keys.js";
import { selectorsOf } from "./throttle-selectors.js";

/** Step 5 of auth.md §3.4: a record id, an object's `id`, or a one-element array of those; anything else is none. */
export function recordFromResult(value: Value): RecordId | undefined {
  if (value instanceof RecordId) return value;
  if (Array.isArray(value)) return value.length === 1 ? recordFromResult(value[0]) : undefined;
  if (isValueObject(value)) return value.id instanceof RecordId ? value.id : undefined;
  return undefined;
}

/** Loads and type-checks the scope / DB record access used to sign in or up. */
export function loadRecordAccess(ctx: IamContext, ns: string, db: string, ac: string, op: "signin" | "signup", vars: ValueObject): StoredAccess {
  const stored = getAccess(ctx, "DATABASE", ns, db, ac);
  const kind = stored?.def.access.kind;
  if (ctx.compat === 1) {
    if (!stored || kind !== "Record" || (stored.def.legacy !== undefined && stored.def.legacy.kind !== "Scope")) throw accessMissing(1);
    return stored;
  }
  if (!stored) throw accessMissing(2);
  if (kind === "Bearer" && op === "signin") {
    if (vars.key === undefined) throw bearerKeyMissing();
    throw new InvalidAuth("bearer access needs the bearer_access capability, which is not supported");
  }
  if (kind !== "Record" || stored.jwt.issuer === undefined) throw accessMethodMismatch();
  return stored;
}

/** Evaluates SIGNIN / SIGNUP (or AUTHENTICATE) and maps its errors: THROW passes, others become `fail()`. */
async function runClause(ctx: IamContext, expr: Expr, session: Session, vars: ValueObject | undefined, fail: () => Error): Promise<Value> {
  try {
    return await ctx.engine.evaluate(expr, session, vars);
  } catch (e) {
    if (e instanceof ThrownError) throw e;
    // an error text may quote a credential (a type mismatch): those values stay out of the log
    ctx.logger.debug("authentication clause failed", { error: scrub((e as Error).message, vars ? credentialSecrets(vars) : []) });
    if (ctx.forwardClauseErrors && e instanceof Error) throw e;
    throw fail();
  }
}

/** v2 AUTHENTICATE of a record access: `$auth` = rid, `$token` = claims; must yield a record id. */
export async function authenticateRecord(
  ctx: IamContext,
  expr: Expr,
  from: Session,
  ns: string,
  db: string,
  rid: RecordId | undefined,
  tk: ValueObject,
): Promise<RecordId> {
  const sess = privilegedSession(ctx, from, "DATABASE", ns, db);
  sess.rd = rid;
  sess.tk = tk;
  const out = await runClause(ctx, expr, sess, undefined, () => new InvalidAuth("AUTHENTICATE clause failed"));
  const id = recordFromResult(out);
  if (!id) throw new InvalidAuth("AUTHENTICATE clause did not return a record id");
  return id;
}

/** Every string in `value`, at any depth. */
function stringsOf(value: Value, into = new Set<string>()): Set<string> {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (isValueObject(value)) for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

/** `<record>.*`: a record's stored fields. */
const recordFields = (record: RecordId): Expr => ({ kind: "Idiom", parts: [{ kind: "Start", value: { kind: "Literal", value: record } }, { kind: "All" }] });

interface NamedAccount {
  readonly record: RecordId;
  /** The password hashes compared that the record stores. */
  readonly storedHashes: string[];
}

/** A selector's stand-in in a shadow run that leaves it out: a text no stored value is. */
const UNMATCHED = `\u0000surql-auth-unmatched-${Math.random().toString(36).slice(2)}`;

/** Variables `keys`, each a text no stored value is. */
const matchingNothing = (keys: readonly string[]): ValueObject => Object.fromEntries(keys.map((k) => [k, UNMATCHED]));

/**
 * One shadow run of `clause`: every password compare answers true without a verify, owner rights, its transaction
 * always cancelled. "several" when it returns more than one record.
 */
async function shadowRun(ctx: IamContext, clause: Expr, from: Session, ns: string, db: string, vars: ValueObject): Promise<NamedAccount | "several" | undefined> {
  const shadow = privilegedSession(ctx, from, "DATABASE", ns, db);
  const compared = shadowPasswordCompares(shadow);
  try {
    const result = await ctx.engine.evaluate(clause, shadow, vars, { rollback: true });
    const record = recordFromResult(result);
    if (!record) return Array.isArray(result) && result.length > 1 ? "several" : undefined;
    if (compared.length === 0) return { record, storedHashes: [] };
    const stored = stringsOf(await ctx.engine.evaluate(recordFields(record), shadow, {}, { rollback: true }));
    return { record, storedHashes: [...new Set(compared)].filter((hash) => stored.has(hash)) };
  } catch (e) {
    // (a THROW, a credential of the wrong type: the login names no one)
    ctx.logger.debug("signin: finding the account named failed", { error: scrub((e as Error).message, credentialSecrets(vars)) });
    return undefined;
  }
}

/**
 * The accounts a record signin's login names (attack pass 12, J6): the record its SIGNIN clause returns in a shadow
 * run, and the compared hashes stored in it. When it returns several, each selector the request gives is tried
 * alone (the others matching nothing), so `email = $email OR phone = $phone` names the email's account and the
 * phone's. None: an unknown login, or a compare run on rows the login does not name (compare first, an optional
 * selector left out that matches every row without it, also cut to one row by LIMIT) counts against no account.
 */
async function namedAccounts(ctx: IamContext, clause: Expr, from: Session, ns: string, db: string, vars: ValueObject): Promise<NamedAccount[]> {
  // the same run with every value the request sent matching nothing, on every attempt (a known and an unknown login
  // do the same work): a record the clause returns whatever the request says (an optional selector left out, or sent
  // empty, matches every row and LIMIT 1 keeps the first) is not named by the login (attack passes 13 and 14, K1, L1)
  const [all, blind] = await Promise.all([shadowRun(ctx, clause, from, ns, db, vars), shadowRun(ctx, clause, from, ns, db, matchingNothing(Object.keys(vars)))]);
  if (all === undefined) return [];
  if (all !== "several") return blind === undefined ? [all] : [];
  const given = [...selectorsOf(clause)].filter((k) => vars[k] !== undefined && vars[k] !== null && vars[k] !== "");
  if (given.length < 2) return [];
  const alone = await Promise.all(
    given.map((k) => shadowRun(ctx, clause, from, ns, db, { ...vars, ...matchingNothing(given.filter((other) => other !== k)) })),
  );
  return alone.filter((named): named is NamedAccount => named !== undefined && named !== "several");
}

/** Scope / record signin or signup with credentials `vars`; writes the session and returns the token. */
export async function recordSignin(
  ctx: IamContext,
  session: Session,
  vars: ValueObject,
  op: "signin" | "signup",
  ns: string,
  db: string,
  ac: string,
  gate?: CredentialGate,
): Promise<{ token: string }> {
  const { compat } = ctx;
  const stored = loadRecordAccess(ctx, ns, db, ac, op, vars);
  const access = stored.def.access;
  if (access.kind !== "Record") throw accessMethodMismatch();
  const clause = op === "signin" ? access.signin : access.signup;
  if (!clause) throw clauseMissing(compat, op);
  try {
    checkSettableAll(vars, compat);
  } catch (e) {
    ctx.logger.debug("authentication clause failed", { error: scrub((e as Error).message, credentialSecrets(vars)) });
    throw queryFailed(compat, op);
  }
  const priv = privilegedSession(ctx, session, "DATABASE", ns, db);
  const equalTime = op === "signin" ? equalTimeSignin(clause, priv, gate?.check) : undefined;
  const account = (record: RecordId) => accountBucket(ns, db, recordIdText(record, compat));
  // the account the login names joins the throttle's count before any verify (attack pass 12, J6)
  if (gate?.counting) for (const named of await namedAccounts(ctx, clause, session, ns, db, vars)) await gate.claim(account(named.record), named.storedHashes);
  // SIGNIN: a clause error (a credential of the wrong type) may depend on whether a row matched: answer as no record.
  const fail = equalTime ? noRecordReturned : () => queryFailed(compat, op);
  const evaluate = () => runClause(ctx, clause, priv, vars, fail);
  const rid = recordFromResult(await (equalTime ? equalTime.run(evaluate) : evaluate()));
  // no record, or one the throttle holds back: answered alike
  if (!rid || (gate && (await gate.held(account(rid))))) {
    await equalTime?.settle();
    throw noRecordReturned();
  }

  return issueRecordToken(ctx, session, stored, ns, db, ac, rid);
}

/** Issues a record user's token for `rid` through `stored` and writes the session (signin, signup, the refresh grant). */
export async function issueRecordToken(ctx: IamContext, session: Session, stored: StoredAccess, ns: string, db: string, ac: string, rid: RecordId): Promise<{ token: string }> {
  const { compat } = ctx;
  const nowMs = ctx.clock.now();
  const issuer = stored.jwt.issuer;
  if (!issuer) throw accessMethodMismatch();
  const tokenNanos =
    compat === 1
      ? (stored.def.legacy?.kind === "Scope" ? stored.def.legacy.session?.nanos : undefined) ??
        stored.def.duration.session?.nanos ??
        ctx.v1TokenNanos
      : (stored.def.duration.token?.nanos ?? HOUR_NANOS);
  const claims = prepareClaims(
    { alg: issuer.alg, key: issuer.key, nowMs, durationNanos: tokenNanos, NS: ns, DB: db, ...(compat === 1 ? { SC: ac } : { AC: ac }), ID: recordIdText(rid, ctx.compat) },
    compat,
  );
  let identity = rid;
  if (compat === 2 && stored.def.authenticate) {
    const tk = claimsToValue({ ...claims, nbf: claims.iat, iss: "SurrealDB", custom: {} });
    identity = await authenticateRecord(ctx, stored.def.authenticate, session, ns, db, rid, tk);
  }
  const issued = await signClaims(claims, issuer.alg, issuer.key, ctx.keys);
  const sessionNanos = compat === 1 ? tokenNanos : stored.def.duration.session?.nanos;
  const auth: SessionAuth = {
    ns,
    db,
    actor: { level: compat === 1 ? "Scope" : "Record", ns, db, id: recordIdText(identity, compat), roles: [] },
    ac,
    rd: identity,
    tk: claimsToValue(issued.claims),
    exp: compat === 1 ? claims.exp : sessionNanos === undefined ? undefined : expiryAfter(nowMs, sessionNanos, compat),
    definitions: [definitionRef("access", "DATABASE", ns, db, ac, stored)],
  };
  applyAuth(session, auth, identitySince(ctx, auth));
  return { token: issued.token };
}
