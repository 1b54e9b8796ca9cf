// CST → AST, DEFINE and REMOVE: defaults (table permissions NONE, field/param/function FULL, roles ["VIEWER"], event WHEN true), DEFINE SCOPE / TOKEN desugared into DefineAccess with `legacy`.
import type * as A from "../../src/ast/nodes.js";
import type * as C from "../cst.js";
import { describeFound } from "../errors.js";
import { unquoteIdent } from "../literals.js";
import type { IToken } from "chevrotain";
import { nodes, toks, node, tok, has, req, tokensOf, firstToken, type Node, oneOf, type Ctx, type With } from "./context.js";
import { block } from "./statements.js";
import { select } from "./data.js";
import { expr } from "./expressions.js";
import { idioms } from "./idioms.js";
import { typeKind } from "./types.js";

const algorithms = new Set(["EDDSA", "ES256", "ES384", "ES512", "HS256", "HS384", "HS512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"]);

export type DefineCommon = { ifNotExists: boolean; overwrite: boolean; comment: string | undefined; pos: A.Pos | undefined };

export function level(ctx: Ctx, n: C.BaseCstNode): A.Base {
  if (has(n, "ROOT") || has(n, "KV")) return "ROOT";
  if (has(n, "NS") || has(n, "NAMESPACE")) return "NAMESPACE";
  return "DATABASE";
}

/** IF NOT EXISTS / OVERWRITE, COMMENT and position (fields written out: `{ ...head, … }` is a slow V8 object clone). */
function defineCommon(ctx: Ctx, n: With<"EXISTS" | "OVERWRITE", IToken> & With<"commentClause", C.CommentClauseCstNode>, at: Node): DefineCommon {
  const overwrite = tok(n, "OVERWRITE");
  if (overwrite) ctx.v2Only(overwrite, "DEFINE … OVERWRITE");
  return { ifNotExists: has(n, "EXISTS"), overwrite: has(n, "OVERWRITE"), comment: comment(ctx, n), pos: ctx.pos(at) };
}

function comment(ctx: Ctx, n: With<"commentClause", C.CommentClauseCstNode>): string | undefined {
  const list = nodes(n, "commentClause");
  const last = list[list.length - 1];
  if (last === undefined) return undefined;
  const s = tok(last, "StringLiteral");
  return s ? ctx.string(s) : undefined;
}

export function define(ctx: Ctx, n: C.DefineStmtCstNode): A.DefineStatement {
  const one = oneOf(n, "DEFINE");
  const common = defineCommon(ctx, one.node, n);
  switch (one.key) {
    case "defineNamespace": return { kind: "DefineNamespace", name: ctx.nameText(req(tok(one.node, "IdentName"))), ...common };
    case "defineDatabase": {
      const c = one.node;
      const cf = tok(c, "DurationLiteral");
      return { kind: "DefineDatabase", name: ctx.nameText(req(tok(c, "IdentName"))), changefeed: cf && ctx.duration(cf), ...common };
    }
    case "defineUser": return defineUser(ctx, one.node, common);
    case "defineScope": return defineScope(ctx, one.node, common);
    case "defineToken": return defineToken(ctx, one.node, common);
    case "defineAccess":
      ctx.v2Only(tok(one.node, "ACCESS"), "DEFINE ACCESS", "DEFINE SCOPE or DEFINE TOKEN");
      return defineAccess(ctx, one.node, common);
    case "defineTable": return defineTable(ctx, one.node, common);
    case "defineField": return defineField(ctx, one.node, common);
    case "defineIndex": {
      const c = one.node;
      // stored as a plain index it would answer as one and export another definition (attack pass 11, I1)
      const special = tok(c, "special");
      if (special) ctx.fail(special, `${special.image.toUpperCase()} indexes (full-text and vector search) are not supported by surql-auth`);
      const fields = nodes(c, "idiomList").flatMap((l) => idioms(ctx, l));
      return { kind: "DefineIndex", name: ctx.nameText(req(tok(c, "IdentName"))), table: onTable(ctx, c), fields, unique: has(c, "UNIQUE"), ...common };
    }
    case "defineParam": {
      const c = one.node;
      const value = node(c, "expr");
      if (value === undefined) ctx.fail(tokensOf(c).pop(), "Missing VALUE clause in DEFINE PARAM", ["`VALUE`"]);
      const perm = node(c, "permissionSimple");
      return { kind: "DefineParam", name: req(tok(c, "Param")).image.slice(1), value: expr(ctx, value), permissions: perm ? permissionValue(ctx, req(node(perm, "permissionValue"))) : { kind: "Full" }, ...common };
    }
    case "defineEvent": {
      const c = one.node;
      const when = node(c, "when");
      const thens = nodes(c, "then");
      if (thens.length === 0) ctx.fail(tokensOf(c).pop(), "Missing THEN clause in DEFINE EVENT", ["`THEN`"]);
      return { kind: "DefineEvent", name: ctx.nameText(req(tok(c, "IdentName"))), table: onTable(ctx, c), when: when ? expr(ctx, when) : { kind: "Literal", value: true }, then: thens.map((t) => expr(ctx, t)), ...common };
    }
    case "defineFunction": {
      const c = one.node;
      const fnName = req(node(c, "functionName"));
      const parts = toks(fnName, "IdentName");
      if (ctx.nameText(parts[0]).toLowerCase() !== "fn") ctx.fail(firstToken(fnName), `Unexpected token \`${ctx.nameText(parts[0])}\`, expected \`fn\``, ["`fn`"]);
      const perm = node(c, "permissionSimple");
      const ret = node(c, "returns");
      return {
        kind: "DefineFunction",
        name: parts.slice(1).map((p) => ctx.nameText(p)).join("::"),
        args: nodes(c, "fnArg").map((a) => ({ name: req(tok(a, "Param")).image.slice(1), type: typeKind(ctx, req(node(a, "type"))) })),
        body: block(ctx, req(node(c, "block"))),
        returns: ret && typeKind(ctx, ret),
        permissions: perm ? permissionValue(ctx, req(node(perm, "permissionValue"))) : { kind: "Full" },
        ...common,
      };
    }
    case "defineAnalyzer": {
      const c = one.node;
      const ts = nodes(c, "opaque").flatMap((o) => tokensOf(o)).sort((a, b) => a.startOffset - b.startOffset);
      const text = ts.length ? ctx.text.slice(ts[0].startOffset, ts[ts.length - 1].startOffset + ts[ts.length - 1].image.length) : "";
      return { kind: "DefineAnalyzer", name: ctx.nameText(req(tok(c, "IdentName"))), text, ...common };
    }
  }
}

function onTable(ctx: Ctx, n: With<"table", IToken>): string {
  return ctx.nameText(req(tok(n, "table")));
}

function durations(ctx: Ctx, n: With<"durationClause", C.DurationClauseCstNode>, allowGrant: boolean): A.DurationClause {
  const out: { grant?: A.Duration | null; token?: A.Duration | null; session?: A.Duration | null } = {};
  for (const clause of nodes(n, "durationClause")) {
    for (const f of nodes(clause, "durationFor")) {
      const d = tok(f, "DurationLiteral");
      const none = tok(f, "NONE");
      if (has(f, "GRANT")) {
        if (!allowGrant) ctx.fail(tok(f, "GRANT"), "Unexpected token `GRANT`, expected `TOKEN` or `SESSION`", ["`TOKEN`", "`SESSION`"]);
        out.grant = d ? ctx.duration(d) : null;
      } else if (has(f, "TOKEN")) {
        if (none) ctx.fail(none, "Unexpected token `NONE`, expected a token duration", ["a token duration"]);
        out.token = ctx.duration(req(d));
      } else out.session = d ? ctx.duration(d) : null;
    }
  }
  return out;
}

function defineUser(ctx: Ctx, c: C.DefineUserCstNode, common: DefineCommon): A.DefineUserStatement {
  const roles: A.Role[] = [];
  const written: string[] = [];
  for (const r of toks(c, "role")) {
    const text = ctx.nameText(r);
    const up = text.toUpperCase();
    if (up !== "OWNER" && up !== "EDITOR" && up !== "VIEWER") ctx.fail(firstToken(r), `Invalid role '${text}'`, ["`OWNER`", "`EDITOR`", "`VIEWER`"]);
    roles.push(up);
    written.push(text);
  }
  const pw = toks(c, "password"), ph = toks(c, "passhash");
  return {
    kind: "DefineUser",
    name: ctx.nameText(req(tok(c, "IdentName"))),
    base: level(ctx, req(node(c, "base"))),
    password: pw.length ? ctx.string(pw[pw.length - 1]) : undefined,
    passhash: ph.length ? ctx.string(ph[ph.length - 1]) : undefined,
    roles: roles.length ? roles : ["VIEWER"],
    rolesAsWritten: written.length ? written : ["Viewer"],
    duration: userDurations(ctx, c),
    ...common,
  };
}

/** A system user's DURATION clause (2.x). */
function userDurations(ctx: Ctx, c: C.DefineUserCstNode): A.DurationClause {
  const clause = node(c, "durationClause");
  if (clause) ctx.v2Only(tok(clause, "DURATION"), "DEFINE USER … DURATION");
  return durations(ctx, c, false);
}

function defineScope(ctx: Ctx, c: C.DefineScopeCstNode, common: DefineCommon): A.DefineAccessStatement {
  const s = tok(c, "DurationLiteral");
  const session = s && ctx.duration(s);
  const signup = node(c, "signup"), signin = node(c, "signin");
  return {
    kind: "DefineAccess",
    name: ctx.nameText(req(tok(c, "IdentName"))),
    base: "DATABASE",
    access: { kind: "Record", signup: signup && expr(ctx, signup), signin: signin && expr(ctx, signin), jwt: undefined, refresh: false },
    authenticate: undefined,
    duration: session ? { session } : {},
    legacy: { kind: "Scope", session },
    ...common,
  };
}

function algorithm(ctx: Ctx, n: IToken, allowJwks: boolean): A.JwtAlgorithm | "JWKS" {
  const text = ctx.nameText(n).toUpperCase();
  if (algorithms.has(text) || (allowJwks && text === "JWKS")) return text as A.JwtAlgorithm | "JWKS";
  ctx.fail(firstToken(n), `Unexpected token \`${ctx.nameText(n)}\`, expected an algorithm`, ["an algorithm"]);
}

function defineToken(ctx: Ctx, c: C.DefineTokenCstNode, common: DefineCommon): A.DefineAccessStatement {
  const name = ctx.nameText(req(tok(c, "IdentName")));
  const b = node(c, "base");
  // ON ROOT parses (SurrealDB 2 defines a ROOT JWT access; 1.x rejects it when executed: `Invalid level 'ROOT'`).
  const on: "ROOT" | "NAMESPACE" | "DATABASE" | "SCOPE" = b !== undefined ? level(ctx, b) : "SCOPE";
  const algNode = toks(c, "alg");
  const type = algNode.length ? algorithm(ctx, algNode[algNode.length - 1], true) : "HS512";
  if (type === "JWKS") ctx.v2Only(algNode[algNode.length - 1], "DEFINE TOKEN … TYPE JWKS");
  const values = toks(c, "StringLiteral");
  if (values.length === 0) ctx.fail(tokensOf(c).sort((a, b) => b.startOffset - a.startOffset)[0], "Missing VALUE clause in DEFINE TOKEN", ["`VALUE`"]);
  const value = ctx.string(values[values.length - 1]);
  const verify: A.JwtVerify = type === "JWKS" ? { kind: "Jwks", url: value } : { kind: "Key", alg: type, key: value };
  const jwt: A.JwtConfig = { verify, issuer: undefined };
  const scope = tok(c, "scope");
  return {
    kind: "DefineAccess",
    name,
    base: on === "SCOPE" ? "DATABASE" : on,
    access: on === "SCOPE" ? { kind: "Record", signup: undefined, signin: undefined, jwt, refresh: false } : { kind: "Jwt", jwt },
    authenticate: undefined,
    duration: {},
    legacy: { kind: "Token", on, scope: scope && ctx.nameText(scope), type, value },
    ...common,
  };
}

function jwtConfig(ctx: Ctx, n: C.JwtConfigCstNode): A.JwtConfig {
  const algs = toks(n, "alg"), keys = toks(n, "key"), urls = toks(n, "url");
  const alg = algs.length ? (algorithm(ctx, algs[algs.length - 1], false) as A.JwtAlgorithm) : "HS512";
  let verify: A.JwtVerify;
  if (urls.length) verify = { kind: "Jwks", url: ctx.string(urls[urls.length - 1]) };
  else if (algs.length && keys.length) verify = { kind: "Key", alg, key: ctx.string(keys[keys.length - 1]) };
  else if (algs.length) ctx.fail(firstToken(n), "Missing KEY in JWT configuration", ["`KEY`"]);
  else ctx.fail(firstToken(n), `Unexpected ${describeFound(req(firstToken(n)))}, expected \`ALGORITHM\`, or \`URL\``, ["`ALGORITHM`", "`URL`"]);
  if (!has(n, "ISSUER")) return { verify, issuer: undefined };
  const ialgs = toks(n, "issuerAlg"), ikeys = toks(n, "issuerKey");
  const ialg = ialgs.length ? (algorithm(ctx, ialgs[ialgs.length - 1], false) as A.JwtAlgorithm) : alg;
  if (verify.kind === "Key" && ialg !== verify.alg) ctx.fail(firstToken(ialgs[ialgs.length - 1]), "Jwt algorithm mismatch, the issuer algorithm must match the verification algorithm");
  const ikey = ikeys.length ? ctx.string(ikeys[ikeys.length - 1]) : "";
  if (verify.kind === "Key" && verify.alg.startsWith("HS") && ikeys.length && ikey !== verify.key) {
    ctx.fail(ikeys[ikeys.length - 1], "Jwt key mismatch, the issuer key must match the verification key for symmetric algorithms");
  }
  return { verify, issuer: { alg: ialg, key: ikey } };
}

function defineAccess(ctx: Ctx, c: C.DefineAccessCstNode, common: DefineCommon): A.DefineAccessStatement {
  const base = level(ctx, req(node(c, "base")));
  let access: A.AccessType = { kind: "Record", signup: undefined, signin: undefined, jwt: undefined, refresh: false };
  const at = nodes(c, "accessType");
  const t = at[at.length - 1];
  if (t !== undefined) {
    if (has(t, "BEARER")) {
      const subject = toks(t, "subject")[0]?.tokenType.name === "USER" ? "USER" : "RECORD";
      if (subject === "RECORD" && base !== "DATABASE") ctx.fail(firstToken(t), `Unexpected token \`RECORD\`, expected \`USER\``, ["`USER`"]);
      const j = node(t, "jwtConfig");
      access = { kind: "Bearer", subject, jwt: j && jwtConfig(ctx, j) };
    } else if (has(t, "RECORD")) {
      if (base !== "DATABASE") ctx.fail(tok(t, "RECORD"), "Unexpected token `RECORD`, expected `JWT` or `BEARER`", ["`JWT`", "`BEARER`"]);
      const su = node(t, "signup"), si = node(t, "signin"), j = node(t, "jwtConfig");
      access = { kind: "Record", signup: su && expr(ctx, su), signin: si && expr(ctx, si), jwt: j && jwtConfig(ctx, j), refresh: has(t, "REFRESH") };
    } else {
      access = { kind: "Jwt", jwt: jwtConfig(ctx, req(node(t, "jwtConfig"))) };
    }
  }
  // No TYPE: RECORD even outside a database (SurrealDB 2.6 quirk, checked in the oracle).
  const auth = node(c, "authenticate");
  return {
    kind: "DefineAccess",
    name: ctx.nameText(req(tok(c, "IdentName"))),
    base,
    access,
    authenticate: auth && expr(ctx, auth),
    duration: durations(ctx, c, true),
    legacy: undefined,
    ...common,
  };
}

/** NONE | FULL | WHERE …: a permissionValue node's, or a FOR clause's own parts. */
function permissionValue(ctx: Ctx, n: { children: C.PermissionValueCstChildren }): A.Permission {
  if (has(n, "NONE")) return { kind: "None" };
  if (has(n, "FULL")) return { kind: "Full" };
  return { kind: "Where", cond: expr(ctx, req(node(n, "expr"))) };
}

function permissions(ctx: Ctx, n: With<"permissions", C.PermissionsCstNode>, isField: boolean): { permissions: A.Permissions; permissionsWritten: boolean } {
  const dflt: A.Permission = isField ? { kind: "Full" } : { kind: "None" };
  const p: { select: A.Permission; create: A.Permission; update: A.Permission; delete: A.Permission } = { select: dflt, create: dflt, update: dflt, delete: dflt };
  const list = nodes(n, "permissions");
  for (const perm of list) {
    if (has(perm, "NONE") || has(perm, "FULL")) {
      const v: A.Permission = has(perm, "NONE") ? { kind: "None" } : { kind: "Full" };
      p.select = p.create = p.update = p.delete = v;
      continue;
    }
    for (const f of nodes(perm, "permissionFor")) {
      const v = permissionValue(ctx, f);
      for (const a of toks(f, "action")) {
        const action = ctx.nameText(a).toLowerCase();
        if (action !== "select" && action !== "create" && action !== "update" && action !== "delete") {
          ctx.fail(firstToken(a), `Unexpected token \`${ctx.nameText(a)}\`, expected one of \`select\`, \`create\`, \`update\`, \`delete\``, ["`select`", "`create`", "`update`", "`delete`"]);
        }
        p[action] = v;
      }
    }
  }
  return { permissions: p, permissionsWritten: list.length > 0 };
}

/** TYPE ANY | NORMAL | RELATION [IN|FROM a | b] [OUT|TO c] [ENFORCED]. */
function tableKind(ctx: Ctx, tt: C.TableTypeCstNode): A.DefineTableStatement["tableType"] {
  if (has(tt, "NORMAL")) return { kind: "Normal" };
  if (!has(tt, "RELATION")) return { kind: "Any" };
  const names = (key: "from" | "to") => nodes(tt, key).flatMap((l) => toks(l, "IdentName").map((x) => ctx.nameText(x)));
  return { kind: "Relation", from: names("from"), to: names("to"), enforced: has(tt, "ENFORCED") };
}

/** The last SCHEMAFULL / SCHEMALESS written: true, false, or undefined when none is. */
function schemaMode(c: With<"SCHEMAFULL" | "SCHEMAFUL" | "SCHEMALESS", IToken>): boolean | undefined {
  const sf = [...toks(c, "SCHEMAFULL"), ...toks(c, "SCHEMAFUL"), ...toks(c, "SCHEMALESS")].sort((a, b) => a.startOffset - b.startOffset).pop();
  return sf && sf.tokenType.name !== "SCHEMALESS";
}

/** ALTER TABLE (2.x only: 1.5.4 has no such statement). */
export function alter(ctx: Ctx, c: C.AlterStmtCstNode): A.AlterTableStatement {
  if (ctx.compat === 1) ctx.fail(tok(c, "TABLE"), "Unexpected token `TABLE`, expected Eof", ["Eof"]);
  const tt = nodes(c, "tableType").at(-1);
  const cf = tok(c, "DurationLiteral");
  const cfNone = toks(c, "NONE").at(-1);
  const note = nodes(c, "commentClause").at(-1);
  const noteText = note && tok(note, "StringLiteral");
  return {
    kind: "AlterTable",
    name: ctx.nameText(req(tok(c, "IdentName"))),
    ifExists: has(c, "EXISTS"),
    drop: has(c, "DROP") ? !has(c, "FALSE") : undefined,
    schemafull: schemaMode(c),
    tableType: tt && tableKind(ctx, tt),
    permissions: has(c, "permissions") ? permissions(ctx, c, false).permissions : undefined,
    comment: note && (noteText ? ctx.string(noteText) : null),
    changefeed: !has(c, "CHANGEFEED") ? undefined : cf && (!cfNone || cf.startOffset > cfNone.startOffset) ? { expiry: ctx.duration(cf), includeOriginal: has(c, "ORIGINAL") } : null,
    pos: ctx.pos(c),
  };
}

function defineTable(ctx: Ctx, c: C.DefineTableCstNode, common: DefineCommon): A.DefineTableStatement {
  const tt = nodes(c, "tableType").at(-1);
  const cf = tok(c, "DurationLiteral");
  const view = nodes(c, "selectStmt").at(-1);
  return {
    kind: "DefineTable",
    name: ctx.nameText(req(tok(c, "IdentName"))),
    drop: has(c, "DROP"),
    schemafull: schemaMode(c) ?? false,
    tableType: tt ? tableKind(ctx, tt) : { kind: "Any" },
    tableTypeWritten: tt !== undefined,
    view: view && select(ctx, view),
    ...permissions(ctx, c, false),
    changefeed: cf && { expiry: ctx.duration(cf), includeOriginal: has(c, "ORIGINAL") },
    ...common,
  };
}

function fieldPath(ctx: Ctx, n: C.FieldPathCstNode): A.IdiomExpr {
  const names = toks(n, "IdentName");
  if (names.length === 1 && Object.keys(n.children).length === 1) return { kind: "Idiom", parts: [{ kind: "Field", name: ctx.nameText(names[0]) }], pos: ctx.pos(n) };
  const parts: A.IdiomPart[] = [];
  // Walk tokens in order: names, `.`, `*`, `[`, numbers.
  const ts = tokensOf(n).sort((a, b) => a.startOffset - b.startOffset);
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    const k = t.tokenType.name;
    if (k === "Dot" || k === "RBracket") continue;
    if (k === "LBracket") {
      const inner = ts[++i];
      if (inner.tokenType.name === "Star") parts.push({ kind: "All" });
      else if (inner.tokenType.name === "Dollar") parts.push({ kind: "Last" });
      else parts.push({ kind: "Index", index: { kind: "Literal", value: ctx.number(inner) } });
      continue;
    }
    if (k === "Star") parts.push({ kind: "All" });
    else parts.push({ kind: "Field", name: k === "BacktickIdent" || k === "AngleIdent" ? unquoteIdent(t.image) : t.image });
  }
  return { kind: "Idiom", parts, pos: ctx.pos(n) };
}

function defineField(ctx: Ctx, c: C.DefineFieldCstNode, common: DefineCommon): A.DefineFieldStatement {
  const t = nodes(c, "type").at(-1), v = nodes(c, "value").at(-1), a = nodes(c, "assert").at(-1), d = nodes(c, "default").at(-1);
  return {
    kind: "DefineField",
    name: fieldPath(ctx, req(node(c, "fieldPath"))),
    table: onTable(ctx, c),
    flexible: has(c, "FLEXIBLE"),
    type: t && typeKind(ctx, t),
    readonly: has(c, "READONLY"),
    value: v && expr(ctx, v),
    assert: a && expr(ctx, a),
    default: d && expr(ctx, d),
    defaultAlways: has(c, "ALWAYS"),
    ...permissions(ctx, c, true),
    ...common,
  };
}

export function remove(ctx: Ctx, n: C.RemoveStmtCstNode): A.RemoveStatement {
  const targetTok = req(tok(n, "target"));
  if (targetTok.tokenType.name === "ACCESS") ctx.v2Only(targetTok, "REMOVE ACCESS", "REMOVE SCOPE or REMOVE TOKEN");
  let target = targetTok.tokenType.name as A.RemoveStatement["target"] | "NS" | "DB";
  if (target === "NS") target = "NAMESPACE";
  if (target === "DB") target = "DATABASE";
  let name: string;
  const param = tok(n, "Param"), fn = node(n, "functionName"), fp = node(n, "fieldPath");
  if (param) name = param.image.slice(1);
  else if (fn) {
    const parts = toks(fn, "IdentName").map((p) => ctx.nameText(p));
    name = (parts[0].toLowerCase() === "fn" ? parts.slice(1) : parts).join("::");
  } else {
    const idiom = fieldPath(ctx, req(fp));
    name = idiom.parts.map((p, i) => (p.kind === "Field" ? (i ? "." : "") + p.name : p.kind === "All" ? "[*]" : p.kind === "Last" ? "[$]" : "[?]")).join("");
  }
  let base: A.Base | undefined, scope: string | undefined, table: string | undefined;
  const b = node(n, "base"), sc = tok(n, "scope"), tb = tok(n, "table");
  const tableTarget = target === "FIELD" || target === "INDEX" || target === "EVENT";
  if (b) {
    if (tableTarget) table = req(firstToken(b)).image;
    else base = level(ctx, b);
  }
  if (sc) {
    if (tableTarget) table = ctx.nameText(sc);
    else {
      base = "DATABASE";
      scope = ctx.nameText(sc);
    }
  }
  if (tb) table = ctx.nameText(tb);
  return { kind: "Remove", target, name, ifExists: has(n, "EXISTS"), base, scope, table, pos: ctx.pos(n) };
}
