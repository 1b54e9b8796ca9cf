// DEFINE statements → the objects `INFO FOR … STRUCTURE` returns (expressions as canonical text).
import type {
  DefineAccessStatement,
  DefineStatement,
  JwtConfig,
  Permission,
  Permissions,
} from "./nodes.js";
import type { Duration, Value, ValueObject } from "../value/types.js";
import { makeCtx, type Ctx, type PrintOptions } from "./print/context.js";
import { ACCESS_TOKEN_DEFAULT as USER_TOKEN_DEFAULT, accessDurations, canIssueGrants, canIssueTokens, effectiveJwt, printedJwt } from "./print/access.js";
import { expr, printBlock, printIdiom, type } from "./print/expr.js";
import { analyzerClauses, tableTypeOf } from "./print/define.js";
import { printSelect } from "./print/statements.js";
import { dur } from "./print/values.js";

type StructurePrinters = { readonly [K in DefineStatement["kind"]]: (s: Extract<DefineStatement, { kind: K }>, c: Ctx) => ValueObject };

/** Adds `comment` only when set (SurrealDB omits the key). */
function withComment(o: ValueObject, comment: string | undefined): ValueObject {
  if (comment !== undefined) o.comment = comment;
  return o;
}

/** `true` = FULL, `false` = NONE, else the WHERE condition as text. */
function perm(p: Permission, c: Ctx): Value {
  return p.kind === "Full" ? true : p.kind === "None" ? false : expr(p.cond, c);
}

function perms(p: Permissions, c: Ctx): ValueObject {
  return { select: perm(p.select, c), create: perm(p.create, c), update: perm(p.update, c), delete: perm(p.delete, c) };
}

function jwtStructure(jwt: JwtConfig): ValueObject {
  const verify: ValueObject = jwt.verify.kind === "Key" ? { alg: jwt.verify.alg, key: jwt.verify.key } : { url: jwt.verify.url };
  const out: ValueObject = { verify };
  if (jwt.issuer !== undefined) out.issuer = { alg: jwt.issuer.alg, key: jwt.issuer.key };
  return out;
}

/** Durations are Duration values; NONE is NONE. */
function durValue(d: Duration | null): Value {
  return d === null ? undefined : d;
}

function accessStructure(s: DefineAccessStatement, c: Ctx): ValueObject {
  if (c.compat === 1 && s.legacy?.kind === "Scope") {
    const o: ValueObject = { name: s.name };
    const session = s.legacy.session ?? s.duration.session ?? undefined;
    if (session !== undefined && session !== null) o.duration = session;
    if (s.access.kind === "Record") {
      if (s.access.signup !== undefined) o.signup = expr(s.access.signup, c);
      if (s.access.signin !== undefined) o.signin = expr(s.access.signin, c);
    }
    return withComment(o, s.comment);
  }
  if (c.compat === 1 && s.legacy?.kind === "Token") {
    const base = s.legacy.on === "SCOPE" ? `SCOPE ${s.legacy.scope ?? ""}` : s.legacy.on;
    return withComment({ name: s.name, base, kind: s.legacy.type, code: s.legacy.value }, s.comment);
  }
  const d = accessDurations(s);
  const duration: ValueObject = {};
  if (canIssueGrants(s)) duration.grant = durValue(d.grant);
  if (canIssueTokens(s, effectiveJwt(s, c.jwt))) duration.token = durValue(d.token);
  duration.session = durValue(d.session);
  const a = s.access;
  const kind: ValueObject = { kind: a.kind === "Jwt" ? "JWT" : a.kind === "Record" ? "RECORD" : "BEARER" };
  const jwt = printedJwt(s, c);
  if (jwt !== undefined) kind.jwt = jwtStructure(jwt);
  if (a.kind === "Record") {
    if (a.signup !== undefined) kind.signup = expr(a.signup, c);
    if (a.signin !== undefined) kind.signin = expr(a.signin, c);
    if (a.refresh) kind.refresh = true;
  }
  if (a.kind === "Bearer") kind.subject = a.subject;
  const o: ValueObject = { name: s.name, base: s.base, duration, kind };
  if (s.authenticate !== undefined) o.authenticate = expr(s.authenticate, c);
  return withComment(o, s.comment);
}

const structurePrinters: StructurePrinters = {
  DefineNamespace: (s) => withComment({ name: s.name }, s.comment),
  DefineDatabase: (s) => withComment({ name: s.name }, s.comment),
  DefineUser: (s, c) => {
    const o: ValueObject = { name: s.name, base: s.base };
    if (c.compat === 1) o.passhash = s.passhash ?? "";
    else o.hash = s.passhash ?? "";
    o.roles = [...(s.rolesAsWritten ?? s.roles)];
    if (c.compat === 2) {
      const token = s.duration.token;
      o.duration = {
        token: token === undefined || token === null ? USER_TOKEN_DEFAULT : token,
        session: s.duration.session === undefined || s.duration.session === null ? undefined : s.duration.session,
      };
    }
    return withComment(o, s.comment);
  },
  DefineAccess: (s, c) => accessStructure(s, c),
  DefineTable: (s, c) => {
    const t = tableTypeOf(s, c.compat);
    let kind: ValueObject;
    if (t.kind === "Relation") {
      kind = { kind: "RELATION", enforced: t.enforced };
      if (t.from.length > 0) kind.in = [...t.from];
      if (t.to.length > 0) kind.out = [...t.to];
    } else kind = { kind: t.kind === "Any" ? "ANY" : "NORMAL" };
    const o: ValueObject = { name: s.name, drop: s.drop, full: s.schemafull, kind, permissions: perms(s.permissions, c) };
    if (s.view !== undefined) o.view = `AS ${printSelect(s.view, c)}`;
    if (s.changefeed !== undefined) o.changefeed = { expiry: dur(s.changefeed.expiry), original: s.changefeed.includeOriginal };
    return withComment(o, s.comment);
  },
  DefineField: (s, c) => {
    const o: ValueObject = { name: printIdiom(s.name, c), what: s.table, flex: s.flexible, readonly: s.readonly };
    if (s.type !== undefined) o.kind = type(s.type, c);
    if (s.value !== undefined) o.value = expr(s.value, c);
    if (s.assert !== undefined) o.assert = expr(s.assert, c);
    if (s.default !== undefined) o.default = expr(s.default, c);
    o.permissions = perms(s.permissions, c);
    return withComment(o, s.comment);
  },
  DefineIndex: (s, c) => {
    const o: ValueObject = { name: s.name, what: s.table, cols: s.fields.map((f) => printIdiom(f, c)).join(", "), index: s.unique ? "UNIQUE" : "" };
    if (c.compat === 2) o.defer = false;
    return withComment(o, s.comment);
  },
  DefineParam: (s, c) => withComment({ name: s.name, value: expr(s.value, c), permissions: perm(s.permissions, c) }, s.comment),
  DefineEvent: (s, c) => withComment({ name: s.name, what: s.table, when: expr(s.when, c), then: s.then.map((e) => expr(e, c)) }, s.comment),
  DefineFunction: (s, c) => {
    const o: ValueObject = {
      name: s.name,
      args: s.args.map((a) => [a.name, type(a.type, c)]),
      block: printBlock(s.body, c),
      permissions: perm(s.permissions, c),
    };
    if (s.returns !== undefined && c.compat === 2) o.returns = type(s.returns, c);
    return withComment(o, s.comment);
  },
  DefineAnalyzer: (s) => {
    const a = analyzerClauses(s.text);
    const o: ValueObject = { name: s.name };
    if (a.function !== undefined) o.function = a.function;
    if (a.tokenizers !== undefined) o.tokenizers = a.tokenizers;
    if (a.filters !== undefined) o.filters = a.filters;
    return withComment(o, s.comment);
  },
};

/**
 * The `INFO FOR … STRUCTURE` object of a definition. Pass `{ redact: true }` as INFO does and, for access
 * methods without a JWT clause, `{ jwt }` (the resolved `StoredAccess.jwt`).
 */
export function structureOf(def: DefineStatement, opts?: PrintOptions): Value {
  const c = makeCtx(opts);
  return (structurePrinters[def.kind] as (s: DefineStatement, c: Ctx) => ValueObject)(def, c);
}
