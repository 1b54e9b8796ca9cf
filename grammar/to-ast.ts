// CST → AST: one visitor over the parser's CST; applies operator precedence, fills defaults, desugars SCOPE / TOKEN.
import type { CstElement, CstNode, IToken } from "chevrotain";
import type * as A from "../src/ast/nodes.js";
import { Decimal, Geometry, RecordId, Uuid, type RecordIdKey, type Value } from "../src/value/types.js";
import { parseI64 } from "../src/value/int.js";
import { describeFound, parseErrorAtToken } from "./errors.js";
import { datetimeFromText, durationFromText, InvalidNumber, numberFromText, unquote, unquoteIdent, uuidFromText } from "./literals.js";

type Node = CstNode;

function isToken(e: CstElement): e is IToken {
  return (e as IToken).image !== undefined;
}
function nodes(n: Node, key: string): Node[] {
  return (n.children[key] as Node[] | undefined) ?? [];
}
function toks(n: Node, key: string): IToken[] {
  return (n.children[key] as IToken[] | undefined) ?? [];
}
function node(n: Node, key: string, i = 0): Node | undefined {
  return nodes(n, key)[i];
}
function tok(n: Node, key: string, i = 0): IToken | undefined {
  return toks(n, key)[i];
}
function has(n: Node, key: string): boolean {
  return n.children[key] !== undefined;
}
function req<T>(v: T | undefined): T {
  if (v === undefined) throw new Error("internal: missing CST child");
  return v;
}

/** All tokens of a CST node in source order. */
function tokensOf(n: Node, out: IToken[] = []): IToken[] {
  for (const list of Object.values(n.children)) for (const e of list) isToken(e) ? out.push(e) : tokensOf(e, out);
  return out;
}
/**
 * Where a node starts (the parser tracks no node locations): children are keyed in the order they were first added,
 * so the first key's first element is the first thing consumed; an empty node on that path falls back to the
 * smallest token offset. `undefined` for a node that consumed nothing.
 */
function startOffsetOf(n: Node): number | undefined {
  let cur = n;
  for (;;) {
    let first: CstElement | undefined;
    for (const key in cur.children) {
      first = cur.children[key][0];
      break;
    }
    if (first === undefined) break;
    if (isToken(first)) return first.startOffset;
    cur = first;
  }
  return firstToken(n)?.startOffset;
}
/** The first child list of a node (skipping `except`), without allocating the entries array. */
function onlyChild(n: Node, except?: string): [string, CstElement[]] {
  for (const key in n.children) if (key !== except) return [key, n.children[key]];
  throw new Error("internal: empty CST node");
}

function firstToken(n: Node | IToken): IToken | undefined {
  if (isToken(n)) return n;
  let best: IToken | undefined;
  for (const list of Object.values(n.children)) {
    for (const e of list) {
      const t = isToken(e) ? e : firstToken(e);
      if (t !== undefined && (best === undefined || t.startOffset < best.startOffset)) best = t;
    }
  }
  return best;
}

const algorithms = new Set(["EDDSA", "ES256", "ES384", "ES512", "HS256", "HS384", "HS512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"]);
const basicTypes = new Set(["any", "null", "bool", "bytes", "datetime", "decimal", "duration", "float", "int", "number", "object", "point", "string", "uuid", "regex", "range"]);

const opText: Record<string, A.BinaryOp> = {
  AND: "&&", AndAnd: "&&", OR: "||", OrOr: "||", Nullish: "??", Truthy: "?:", Eq: "=", EqEq: "==", NotEq: "!=",
  AnyEq: "?=", AllEq: "*=", Tilde: "~", NotLike: "!~", AnyLike: "?~", AllLike: "*~", Matches: "MATCHES", Lt: "<", LtEq: "<=",
  Gt: ">", GtEq: ">=", Plus: "+", Minus: "-", Star: "*", Times: "*", Slash: "/", Divide: "/", Percent: "%", Power: "**",
  IN: "INSIDE", CONTAINS: "CONTAINS", CONTAINSNOT: "CONTAINSNOT", CONTAINSALL: "CONTAINSALL", CONTAINSANY: "CONTAINSANY",
  CONTAINSNONE: "CONTAINSNONE", INSIDE: "INSIDE", NOTINSIDE: "NOTINSIDE", ALLINSIDE: "ALLINSIDE", ANYINSIDE: "ANYINSIDE",
  NONEINSIDE: "NONEINSIDE", OUTSIDE: "OUTSIDE", INTERSECTS: "INTERSECTS",
};
const setOps: Record<string, A.BinaryOp> = {
  "∋": "CONTAINS", "∌": "CONTAINSNOT", "⊇": "CONTAINSALL", "⊃": "CONTAINSANY", "⊅": "CONTAINSNONE",
  "∈": "INSIDE", "∉": "NOTINSIDE", "⊆": "ALLINSIDE", "⊂": "ANYINSIDE", "⊄": "NONEINSIDE",
};

/**
 * Binding power, higher binds tighter (SurrealDB 2.6, checked against the oracle):
 * OR < AND < equality (= IS != == ?= *= ~ !~ ?~ *~ @@) < relation (< <= > >= IN CONTAINS… INSIDE… OUTSIDE INTERSECTS)
 * < + - < * / % < ** < ?? ?: — all left-associative (`2 ** 3 ** 2` is 64, `2 ?? 1 + 1` is 3).
 */
function precedence(op: A.BinaryOp): number {
  switch (op) {
    case "||": return 1;
    case "&&": return 2;
    case "=": case "==": case "!=": case "?=": case "*=": case "~": case "!~": case "?~": case "*~": case "MATCHES": return 4;
    case "+": case "-": return 6;
    case "*": case "/": case "%": return 7;
    case "**": return 8;
    case "??": case "?:": return 9;
    default: return 5;
  }
}

/** Operators SurrealDB 2 refuses to chain without parentheses (`a = b = c`, `a IN b CONTAINS c`); not `==` nor `<` `<=` `>` `>=`. */
function nonAssociative(op: A.BinaryOp): boolean {
  const p = precedence(op);
  return (p === 4 || p === 5) && op !== "==" && op !== "<" && op !== "<=" && op !== ">" && op !== ">=";
}

export class AstBuilder {
  constructor(private readonly text: string) {}

  private fail(token: IToken | undefined, message: string, expected: readonly string[] = []): never {
    throw parseErrorAtToken(this.text, token, message, expected);
  }

  /** Offsets where each line starts (built on first use) for offset → line/column. */
  private lineStarts: number[] | undefined;

  private pos(n: Node | IToken | undefined): A.Pos | undefined {
    if (n === undefined) return undefined;
    const offset = isToken(n) ? n.startOffset : startOffsetOf(n);
    if (offset === undefined || Number.isNaN(offset)) return undefined;
    if (this.lineStarts === undefined) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    const ls = this.lineStarts;
    let lo = 0, hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - ls[lo] + 1, offset };
  }

  // ───────────── names and literals ─────────────

  nameText(t: IToken): string {
    const name = t.tokenType.name;
    if (name === "BacktickIdent" || name === "AngleIdent") return unquoteIdent(t.image);
    return t.image;
  }

  string(t: IToken): string {
    try {
      return unquote(t.image);
    } catch {
      this.fail(t, "Invalid escape character in strand");
    }
  }

  number(t: IToken): bigint | number | Decimal {
    try {
      return numberFromText(t.image);
    } catch (e) {
      if (!(e instanceof InvalidNumber)) throw e;
      this.fail(t, e.message);
    }
  }

  duration(t: IToken): A.Duration {
    const d = durationFromText(t.image);
    if (d === undefined) this.fail(t, `Invalid duration \`${t.image}\`: exceeds the maximum duration`);
    return d;
  }

  private prefixed(t: IToken): A.Expr {
    const prefix = t.image[0].toLowerCase();
    let content: string;
    try {
      content = unquote(t.image.slice(1));
    } catch {
      this.fail(t, "Invalid escape character in strand");
    }
    switch (prefix) {
      case "d": {
        const d = datetimeFromText(content);
        if (d === undefined) this.fail(t, `Unexpected token \`${t.image}\`, expected a datetime`);
        return { kind: "Literal", value: d, pos: this.pos(t) };
      }
      case "u": {
        const u = uuidFromText(content);
        if (u === undefined) this.fail(t, `Unexpected token \`${t.image}\`, expected a uuid`);
        return { kind: "Literal", value: u, pos: this.pos(t) };
      }
      case "r": {
        let rid: A.RecordIdExpr;
        try {
          rid = parseRecordIdExpr(content);
        } catch {
          this.fail(t, `Unexpected token \`${t.image}\`, expected a record-id`);
        }
        return { ...rid, pos: this.pos(t) };
      }
      case "b": {
        if (!/^(?:[0-9a-fA-F]{2})*$/.test(content)) this.fail(t, `Unexpected token \`${t.image}\`, expected hex bytes`);
        const bytes = new Uint8Array(content.length / 2);
        for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(content.slice(i * 2, i * 2 + 2), 16);
        return { kind: "Literal", value: bytes, pos: this.pos(t) };
      }
      default:
        return { kind: "Literal", value: content, pos: this.pos(t) };
    }
  }

  // ───────────── statements ─────────────

  query(n: Node): A.Statement[] {
    return this.statements(nodes(n, "statement"));
  }

  /** Statements of a query or block. */
  private statements(list: Node[]): A.Statement[] {
    return list.map((s) => this.statement(s));
  }

  statement(n: Node): A.Statement {
    const [key, list] = onlyChild(n);
    const child = list[0];
    if (isToken(child)) {
      const pos = this.pos(child);
      return key === "BREAK" ? { kind: "Break", pos } : { kind: "Continue", pos };
    }
    return this.statementFrom(key, child);
  }

  private statementFrom(key: string, c: Node): A.Statement {
    switch (key) {
      case "useStmt": return this.use(c);
      case "letStmt": return this.let(c);
      case "returnStmt": return { kind: "Return", value: this.expr(req(node(c, "expr"))), fetch: this.optIdioms(c, "idiomList"), pos: this.pos(c) };
      case "ifStmt": return this.if(c);
      case "forStmt": return { kind: "For", param: req(tok(c, "Param")).image.slice(1), range: this.expr(req(node(c, "expr"))), body: this.block(req(node(c, "block"))), pos: this.pos(c) };
      case "throwStmt": return { kind: "Throw", value: this.expr(req(node(c, "expr"))), pos: this.pos(c) };
      case "optionStmt": return { kind: "Option", name: req(tok(c, "IdentName")).image.toUpperCase(), value: !has(c, "FALSE"), pos: this.pos(c) };
      case "sleepStmt": return { kind: "Sleep", duration: this.duration(req(tok(c, "DurationLiteral"))), pos: this.pos(c) };
      case "txStmt": return { kind: has(c, "BEGIN") ? "Begin" : has(c, "COMMIT") ? "Commit" : "Cancel", pos: this.pos(c) } as A.Statement;
      case "infoStmt": return this.info(c);
      case "defineStmt": return this.define(c);
      case "removeStmt": return this.remove(c);
      case "createStmt": return this.create(c);
      case "selectStmt": return this.select(c);
      case "updateStmt": return this.update(c);
      case "deleteStmt": return this.delete(c);
      case "insertStmt": return this.insert(c);
      case "relateStmt": return this.relate(c);
      case "liveStmt": return this.live(c);
      case "killStmt": return { kind: "Kill", id: this.expr(req(node(c, "expr"))), pos: this.pos(c) };
      case "expr": return { kind: "Expr", expr: this.expr(c), pos: this.pos(c) };
      default: throw new Error(`internal: unknown statement ${key}`);
    }
  }

  private use(n: Node): A.UseStatement {
    const ns = tok(n, "nsName"), db = tok(n, "dbName");
    return { kind: "Use", ns: ns && this.nameText(ns), db: db && this.nameText(db), pos: this.pos(n) };
  }

  private let(n: Node): A.LetStatement {
    const t = node(n, "type");
    return { kind: "Let", name: req(tok(n, "Param")).image.slice(1), type: t && this.type(t), value: this.expr(req(node(n, "expr"))), pos: this.pos(n) };
  }

  private if(n: Node): A.IfStatement {
    const conds = nodes(n, "cond").map((c) => this.expr(c));
    if (has(n, "THEN")) {
      const thens = nodes(n, "then").map((c) => this.expr(c));
      const other = node(n, "otherwise");
      return { kind: "If", branches: conds.map((cond, i) => ({ cond, then: thens[i] })), otherwise: other && this.expr(other), style: "Then", pos: this.pos(n) };
    }
    const thens = nodes(n, "thenBlock").map((b) => this.block(b));
    const other = node(n, "otherwiseBlock");
    return { kind: "If", branches: conds.map((cond, i) => ({ cond, then: thens[i] })), otherwise: other && this.block(other), style: "Block", pos: this.pos(n) };
  }

  private base(n: Node): A.Base {
    if (has(n, "ROOT") || has(n, "KV")) return "ROOT";
    if (has(n, "NS") || has(n, "NAMESPACE")) return "NAMESPACE";
    return "DATABASE";
  }

  private info(n: Node): A.InfoStatement {
    const structure = has(n, "STRUCTURE");
    const pos = this.pos(n);
    const names = toks(n, "IdentName");
    const b = nodes(n, "base");
    if (has(n, "TABLE") || has(n, "TB")) return { kind: "Info", target: "TABLE", name: this.nameText(names[0]), base: undefined, table: undefined, structure, pos };
    if (has(n, "USER")) return { kind: "Info", target: "USER", name: this.nameText(names[0]), base: b[0] && this.base(b[0]), table: undefined, structure, pos };
    if (has(n, "SCOPE")) return { kind: "Info", target: "SCOPE", name: this.nameText(names[0]), base: undefined, table: undefined, structure, pos };
    if (has(n, "INDEX")) return { kind: "Info", target: "INDEX", name: this.nameText(names[0]), base: undefined, table: this.nameText(req(tok(n, "table"))), structure, pos };
    const base = this.base(b[0]);
    return { kind: "Info", target: base, name: undefined, base: undefined, table: undefined, structure, pos };
  }

  // ───────────── DEFINE ─────────────

  private head(n: Node): { ifNotExists: boolean; overwrite: boolean } {
    const h = req(node(n, "defineHead"));
    return { ifNotExists: has(h, "EXISTS"), overwrite: has(h, "OVERWRITE") };
  }

  private comment(n: Node): string | undefined {
    const list = nodes(n, "commentClause");
    const last = list[list.length - 1];
    if (last === undefined) return undefined;
    const s = tok(last, "StringLiteral");
    return s ? this.string(s) : undefined;
  }

  private define(n: Node): A.DefineStatement {
    const [key, list] = onlyChild(n, "DEFINE");
    const c = list[0] as Node;
    const common = { ...this.head(c), comment: this.comment(c), pos: this.pos(n) };
    switch (key) {
      case "defineNamespace": return { kind: "DefineNamespace", name: this.nameText(req(tok(c, "IdentName"))), ...common };
      case "defineDatabase": {
        const cf = tok(c, "DurationLiteral");
        return { kind: "DefineDatabase", name: this.nameText(req(tok(c, "IdentName"))), changefeed: cf && this.duration(cf), ...common };
      }
      case "defineUser": return this.defineUser(c, common);
      case "defineScope": return this.defineScope(c, common);
      case "defineToken": return this.defineToken(c, common);
      case "defineAccess": return this.defineAccess(c, common);
      case "defineTable": return this.defineTable(c, common);
      case "defineField": return this.defineField(c, common);
      case "defineIndex": {
        const fields = nodes(c, "idiomList").flatMap((l) => this.idioms(l));
        return { kind: "DefineIndex", name: this.nameText(req(tok(c, "IdentName"))), table: this.onTable(c), fields, unique: has(c, "UNIQUE"), ...common };
      }
      case "defineParam": {
        const value = node(c, "expr");
        if (value === undefined) this.fail(tokensOf(c).pop(), "Missing VALUE clause in DEFINE PARAM", ["`VALUE`"]);
        const perm = node(c, "permissionSimple");
        return { kind: "DefineParam", name: req(tok(c, "Param")).image.slice(1), value: this.expr(value), permissions: perm ? this.permissionValue(req(node(perm, "permissionValue"))) : { kind: "Full" }, ...common };
      }
      case "defineEvent": {
        const when = node(c, "when");
        const thens = nodes(c, "then");
        if (thens.length === 0) this.fail(tokensOf(c).pop(), "Missing THEN clause in DEFINE EVENT", ["`THEN`"]);
        return { kind: "DefineEvent", name: this.nameText(req(tok(c, "IdentName"))), table: this.onTable(c), when: when ? this.expr(when) : { kind: "Literal", value: true }, then: thens.map((t) => this.expr(t)), ...common };
      }
      case "defineFunction": {
        const fnName = req(node(c, "functionName"));
        const parts = toks(fnName, "IdentName");
        if (this.nameText(parts[0]).toLowerCase() !== "fn") this.fail(firstToken(fnName), `Unexpected token \`${this.nameText(parts[0])}\`, expected \`fn\``, ["`fn`"]);
        const perm = node(c, "permissionSimple");
        const ret = node(c, "returns");
        return {
          kind: "DefineFunction",
          name: parts.slice(1).map((p) => this.nameText(p)).join("::"),
          args: nodes(c, "fnArg").map((a) => ({ name: req(tok(a, "Param")).image.slice(1), type: this.type(req(node(a, "type"))) })),
          body: this.block(req(node(c, "block"))),
          returns: ret && this.type(ret),
          permissions: perm ? this.permissionValue(req(node(perm, "permissionValue"))) : { kind: "Full" },
          ...common,
        };
      }
      case "defineAnalyzer": {
        const ts = nodes(c, "opaque").flatMap((o) => tokensOf(o)).sort((a, b) => a.startOffset - b.startOffset);
        const text = ts.length ? this.text.slice(ts[0].startOffset, ts[ts.length - 1].startOffset + ts[ts.length - 1].image.length) : "";
        return { kind: "DefineAnalyzer", name: this.nameText(req(tok(c, "IdentName"))), text, ...common };
      }
      default: throw new Error(`internal: unknown define ${key}`);
    }
  }

  private onTable(n: Node): string {
    return this.nameText(req(tok(req(node(n, "onTable")), "IdentName")));
  }

  private durations(n: Node, allowGrant: boolean): A.DurationClause {
    const out: { grant?: A.Duration | null; token?: A.Duration | null; session?: A.Duration | null } = {};
    for (const clause of nodes(n, "durationClause")) {
      for (const f of nodes(clause, "durationFor")) {
        const d = tok(f, "DurationLiteral");
        const none = tok(f, "NONE");
        if (has(f, "GRANT")) {
          if (!allowGrant) this.fail(tok(f, "GRANT"), "Unexpected token `GRANT`, expected `TOKEN` or `SESSION`", ["`TOKEN`", "`SESSION`"]);
          out.grant = d ? this.duration(d) : null;
        } else if (has(f, "TOKEN")) {
          if (none) this.fail(none, "Unexpected token `NONE`, expected a token duration", ["a token duration"]);
          out.token = this.duration(req(d));
        } else out.session = d ? this.duration(d) : null;
      }
    }
    return out;
  }

  private defineUser(c: Node, common: DefineCommon): A.DefineUserStatement {
    const roles: A.Role[] = [];
    const written: string[] = [];
    for (const r of toks(c, "role")) {
      const text = this.nameText(r);
      const up = text.toUpperCase();
      if (up !== "OWNER" && up !== "EDITOR" && up !== "VIEWER") this.fail(firstToken(r), `Invalid role '${text}'`, ["`OWNER`", "`EDITOR`", "`VIEWER`"]);
      roles.push(up);
      written.push(text);
    }
    const pw = toks(c, "password"), ph = toks(c, "passhash");
    return {
      kind: "DefineUser",
      name: this.nameText(req(tok(c, "IdentName"))),
      base: this.base(req(node(c, "base"))),
      password: pw.length ? this.string(pw[pw.length - 1]) : undefined,
      passhash: ph.length ? this.string(ph[ph.length - 1]) : undefined,
      roles: roles.length ? roles : ["VIEWER"],
      rolesAsWritten: written.length ? written : ["Viewer"],
      duration: this.durations(c, false),
      ...common,
    };
  }

  private defineScope(c: Node, common: DefineCommon): A.DefineAccessStatement {
    const s = tok(c, "DurationLiteral");
    const session = s && this.duration(s);
    const signup = node(c, "signup"), signin = node(c, "signin");
    return {
      kind: "DefineAccess",
      name: this.nameText(req(tok(c, "IdentName"))),
      base: "DATABASE",
      access: { kind: "Record", signup: signup && this.expr(signup), signin: signin && this.expr(signin), jwt: undefined, refresh: false },
      authenticate: undefined,
      duration: session ? { session } : {},
      legacy: { kind: "Scope", session },
      ...common,
    };
  }

  private algorithm(n: IToken, allowJwks: boolean): A.JwtAlgorithm | "JWKS" {
    const text = this.nameText(n).toUpperCase();
    if (algorithms.has(text) || (allowJwks && text === "JWKS")) return text as A.JwtAlgorithm | "JWKS";
    this.fail(firstToken(n), `Unexpected token \`${this.nameText(n)}\`, expected an algorithm`, ["an algorithm"]);
  }

  private defineToken(c: Node, common: DefineCommon): A.DefineAccessStatement {
    const name = this.nameText(req(tok(c, "IdentName")));
    const b = node(c, "base");
    // ON ROOT parses (SurrealDB 2 defines a ROOT JWT access; 1.x rejects it when executed: `Invalid level 'ROOT'`).
    const on: "ROOT" | "NAMESPACE" | "DATABASE" | "SCOPE" = b !== undefined ? this.base(b) : "SCOPE";
    const algNode = toks(c, "alg");
    const type = algNode.length ? this.algorithm(algNode[algNode.length - 1], true) : "HS512";
    const values = toks(c, "StringLiteral");
    if (values.length === 0) this.fail(tokensOf(c).sort((a, b) => b.startOffset - a.startOffset)[0], "Missing VALUE clause in DEFINE TOKEN", ["`VALUE`"]);
    const value = this.string(values[values.length - 1]);
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
      legacy: { kind: "Token", on, scope: scope && this.nameText(scope), type, value },
      ...common,
    };
  }

  private jwtConfig(n: Node): A.JwtConfig {
    const algs = toks(n, "alg"), keys = toks(n, "key"), urls = toks(n, "url");
    const alg = algs.length ? (this.algorithm(algs[algs.length - 1], false) as A.JwtAlgorithm) : "HS512";
    let verify: A.JwtVerify;
    if (urls.length) verify = { kind: "Jwks", url: this.string(urls[urls.length - 1]) };
    else if (algs.length && keys.length) verify = { kind: "Key", alg, key: this.string(keys[keys.length - 1]) };
    else if (algs.length) this.fail(firstToken(n), "Missing KEY in JWT configuration", ["`KEY`"]);
    else this.fail(firstToken(n), `Unexpected ${describeFound(req(firstToken(n)))}, expected \`ALGORITHM\`, or \`URL\``, ["`ALGORITHM`", "`URL`"]);
    if (!has(n, "ISSUER")) return { verify, issuer: undefined };
    const ialgs = toks(n, "issuerAlg"), ikeys = toks(n, "issuerKey");
    const ialg = ialgs.length ? (this.algorithm(ialgs[ialgs.length - 1], false) as A.JwtAlgorithm) : alg;
    if (verify.kind === "Key" && ialg !== verify.alg) this.fail(firstToken(ialgs[ialgs.length - 1]), "Jwt algorithm mismatch, the issuer algorithm must match the verification algorithm");
    const ikey = ikeys.length ? this.string(ikeys[ikeys.length - 1]) : "";
    if (verify.kind === "Key" && verify.alg.startsWith("HS") && ikeys.length && ikey !== verify.key) {
      this.fail(ikeys[ikeys.length - 1], "Jwt key mismatch, the issuer key must match the verification key for symmetric algorithms");
    }
    return { verify, issuer: { alg: ialg, key: ikey } };
  }

  private defineAccess(c: Node, common: DefineCommon): A.DefineAccessStatement {
    const base = this.base(req(node(c, "base")));
    let access: A.AccessType = { kind: "Record", signup: undefined, signin: undefined, jwt: undefined, refresh: false };
    const at = nodes(c, "accessType");
    const t = at[at.length - 1];
    if (t !== undefined) {
      if (has(t, "BEARER")) {
        const subject = has(t, "USER") || toks(t, "subject")[0]?.tokenType.name === "USER" ? "USER" : "RECORD";
        if (subject === "RECORD" && base !== "DATABASE") this.fail(firstToken(t), `Unexpected token \`RECORD\`, expected \`USER\``, ["`USER`"]);
        const j = node(t, "jwtConfig");
        access = { kind: "Bearer", subject, jwt: j && this.jwtConfig(j) };
      } else if (has(t, "RECORD")) {
        if (base !== "DATABASE") this.fail(tok(t, "RECORD"), "Unexpected token `RECORD`, expected `JWT` or `BEARER`", ["`JWT`", "`BEARER`"]);
        const su = node(t, "signup"), si = node(t, "signin"), j = node(t, "jwtConfig");
        access = { kind: "Record", signup: su && this.expr(su), signin: si && this.expr(si), jwt: j && this.jwtConfig(j), refresh: has(t, "REFRESH") };
      } else {
        access = { kind: "Jwt", jwt: this.jwtConfig(req(node(t, "jwtConfig"))) };
      }
    }
    // No TYPE: RECORD even outside a database (SurrealDB 2.6 quirk, checked in the oracle).
    const auth = node(c, "authenticate");
    return {
      kind: "DefineAccess",
      name: this.nameText(req(tok(c, "IdentName"))),
      base,
      access,
      authenticate: auth && this.expr(auth),
      duration: this.durations(c, true),
      legacy: undefined,
      ...common,
    };
  }

  private permissionValue(n: Node): A.Permission {
    if (has(n, "NONE")) return { kind: "None" };
    if (has(n, "FULL")) return { kind: "Full" };
    return { kind: "Where", cond: this.expr(req(node(n, "expr"))) };
  }

  private permissions(n: Node, isField: boolean): { permissions: A.Permissions; permissionsWritten: boolean } {
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
        const v = this.permissionValue(req(node(f, "permissionValue")));
        for (const a of toks(f, "action")) {
          const action = this.nameText(a).toLowerCase();
          if (action !== "select" && action !== "create" && action !== "update" && action !== "delete") {
            this.fail(firstToken(a), `Unexpected token \`${this.nameText(a)}\`, expected one of \`select\`, \`create\`, \`update\`, \`delete\``, ["`select`", "`create`", "`update`", "`delete`"]);
          }
          p[action] = v;
        }
      }
    }
    return { permissions: p, permissionsWritten: list.length > 0 };
  }

  private defineTable(c: Node, common: DefineCommon): A.DefineTableStatement {
    let tableType: A.DefineTableStatement["tableType"] = { kind: "Any" };
    const tt = nodes(c, "tableType").pop();
    if (tt !== undefined) {
      if (has(tt, "NORMAL")) tableType = { kind: "Normal" };
      else if (has(tt, "RELATION")) {
        const names = (key: string) => nodes(tt, key).flatMap((l) => toks(l, "IdentName").map((x) => this.nameText(x)));
        tableType = { kind: "Relation", from: names("from"), to: names("to"), enforced: has(tt, "ENFORCED") };
      }
    }
    const cf = tok(c, "DurationLiteral");
    const view = nodes(c, "selectStmt").pop();
    const sf = [...toks(c, "SCHEMAFULL"), ...toks(c, "SCHEMAFUL"), ...toks(c, "SCHEMALESS")].sort((a, b) => a.startOffset - b.startOffset).pop();
    return {
      kind: "DefineTable",
      name: this.nameText(req(tok(c, "IdentName"))),
      drop: has(c, "DROP"),
      schemafull: sf !== undefined && sf.tokenType.name !== "SCHEMALESS",
      tableType,
      tableTypeWritten: tt !== undefined,
      view: view && this.select(view),
      ...this.permissions(c, false),
      changefeed: cf && { expiry: this.duration(cf), includeOriginal: has(c, "ORIGINAL") },
      ...common,
    };
  }

  private fieldPath(n: Node): A.IdiomExpr {
    const names = toks(n, "IdentName");
    if (names.length === 1 && Object.keys(n.children).length === 1) return { kind: "Idiom", parts: [{ kind: "Field", name: this.nameText(names[0]) }], pos: this.pos(n) };
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
        else parts.push({ kind: "Index", index: { kind: "Literal", value: this.number(inner) } });
        continue;
      }
      if (k === "Star") parts.push({ kind: "All" });
      else parts.push({ kind: "Field", name: k === "BacktickIdent" || k === "AngleIdent" ? unquoteIdent(t.image) : t.image });
    }
    return { kind: "Idiom", parts, pos: this.pos(n) };
  }

  private defineField(c: Node, common: DefineCommon): A.DefineFieldStatement {
    const last = (key: string) => nodes(c, key).pop();
    const t = last("type"), v = last("value"), a = last("assert"), d = last("default");
    return {
      kind: "DefineField",
      name: this.fieldPath(req(node(c, "fieldPath"))),
      table: this.onTable(c),
      flexible: has(c, "FLEXIBLE"),
      type: t && this.type(t),
      readonly: has(c, "READONLY"),
      value: v && this.expr(v),
      assert: a && this.expr(a),
      default: d && this.expr(d),
      defaultAlways: has(c, "ALWAYS"),
      ...this.permissions(c, true),
      ...common,
    };
  }

  private remove(n: Node): A.RemoveStatement {
    const targetTok = req(tok(n, "target"));
    let target = targetTok.tokenType.name as A.RemoveStatement["target"] | "NS" | "DB";
    if (target === "NS") target = "NAMESPACE";
    if (target === "DB") target = "DATABASE";
    let name: string;
    const param = tok(n, "Param"), fn = node(n, "functionName"), fp = node(n, "fieldPath");
    if (param) name = param.image.slice(1);
    else if (fn) {
      const parts = toks(fn, "IdentName").map((p) => this.nameText(p));
      name = (parts[0].toLowerCase() === "fn" ? parts.slice(1) : parts).join("::");
    } else {
      const idiom = this.fieldPath(req(fp));
      name = idiom.parts.map((p, i) => (p.kind === "Field" ? (i ? "." : "") + p.name : p.kind === "All" ? "[*]" : p.kind === "Last" ? "[$]" : "[?]")).join("");
    }
    let base: A.Base | undefined, scope: string | undefined, table: string | undefined;
    const b = node(n, "base"), sc = tok(n, "scope"), tb = tok(n, "table");
    const tableTarget = target === "FIELD" || target === "INDEX" || target === "EVENT";
    if (b) {
      if (tableTarget) table = req(firstToken(b)).image;
      else base = this.base(b);
    }
    if (sc) {
      if (tableTarget) table = this.nameText(sc);
      else {
        base = "DATABASE";
        scope = this.nameText(sc);
      }
    }
    if (tb) table = this.nameText(tb);
    return { kind: "Remove", target, name, ifExists: has(n, "EXISTS"), base, scope, table, pos: this.pos(n) };
  }

  // ───────────── data statements ─────────────

  /** A target expression: a bare name becomes a Table. */
  private target(e: A.Expr): A.Expr {
    if (e.kind === "Idiom" && e.parts.length === 1 && e.parts[0].kind === "Field") return { kind: "Table", name: e.parts[0].name, pos: e.pos };
    return e;
  }

  private targets(n: Node): A.Expr[] {
    return nodes(req(node(n, "targets")), "expr").map((e) => this.target(this.expr(e)));
  }

  private idioms(n: Node): A.IdiomExpr[] {
    return nodes(n, "plainIdiom").map((p) => this.plainIdiom(p));
  }

  private optIdioms(n: Node, key: string): A.IdiomExpr[] | undefined {
    const l = node(n, key);
    return l && this.idioms(l);
  }

  private assignment(n: Node): A.Assignment {
    const op = req(tok(n, "op"));
    const map: Record<string, A.AssignOp> = { Eq: "=", PlusEq: "+=", MinusEq: "-=", PlusQEq: "+?=" };
    return { place: this.plainIdiom(req(node(n, "plainIdiom"))), op: map[op.tokenType.name], value: this.expr(req(node(n, "expr"))) };
  }

  private data(n: Node): A.DataClause | undefined {
    const d = node(n, "dataClause");
    if (d === undefined) return undefined;
    if (has(d, "SET")) return { kind: "Set", items: nodes(d, "assignment").map((a) => this.assignment(a)) };
    if (has(d, "UNSET")) return { kind: "Unset", fields: this.idioms(req(node(d, "idiomList"))) };
    const value = this.expr(req(node(d, "expr")));
    if (has(d, "MERGE")) return { kind: "Merge", value };
    if (has(d, "CONTENT")) return { kind: "Content", value };
    if (has(d, "REPLACE")) return { kind: "Replace", value };
    return { kind: "Patch", value };
  }

  private fields(n: Node): A.Fields {
    if (has(n, "VALUE")) {
      const alias = node(n, "valueAlias");
      return { value: true, items: [{ kind: "Single", expr: this.expr(req(node(n, "valueExpr"))), alias: alias && this.plainIdiom(alias) }] };
    }
    return {
      value: false,
      items: nodes(n, "field").map((f): A.Field => {
        if (has(f, "Star")) return { kind: "All" };
        const alias = node(f, "alias");
        return { kind: "Single", expr: this.expr(req(node(f, "expr"))), alias: alias && this.plainIdiom(alias) };
      }),
    };
  }

  private output(n: Node): A.Output | undefined {
    const o = node(n, "outputClause");
    if (o === undefined) return undefined;
    if (has(o, "NONE")) return { kind: "None" };
    if (has(o, "NULL")) return { kind: "Null" };
    if (has(o, "DIFF")) return { kind: "Diff" };
    if (has(o, "BEFORE")) return { kind: "Before" };
    if (has(o, "AFTER")) return { kind: "After" };
    return { kind: "Fields", fields: this.fields(req(node(o, "fields"))) };
  }

  private tail(n: Node): { timeout: A.Duration | undefined; parallel: boolean } {
    const t = req(node(n, "tail"));
    const d = tok(t, "DurationLiteral");
    return { timeout: d && this.duration(d), parallel: has(t, "PARALLEL") };
  }

  select(n: Node): A.SelectStatement {
    const expr = (key: string) => {
      const e = node(n, key);
      return e && this.expr(e);
    };
    let order: A.OrderClause | undefined;
    if (has(n, "ORDER")) {
      order = has(n, "RAND")
        ? { kind: "Random" }
        : {
            kind: "Fields",
            items: nodes(n, "orderItem").map((o) => ({
              field: this.plainIdiom(req(node(o, "plainIdiom"))),
              direction: has(o, "DESC") ? "DESC" : "ASC",
              collate: has(o, "COLLATE"),
              numeric: has(o, "NUMERIC"),
            })),
          };
    }
    const idx = toks(n, "index");
    return {
      kind: "Select",
      fields: this.fields(req(node(n, "fields"))),
      omit: this.optIdioms(n, "omit"),
      only: has(n, "ONLY"),
      what: this.targets(n),
      with: has(n, "NOINDEX") ? { kind: "NoIndex" } : idx.length ? { kind: "Index", names: idx.map((i) => this.nameText(i)) } : undefined,
      cond: expr("cond"),
      split: this.optIdioms(n, "split"),
      group: has(n, "GROUP") ? { all: has(n, "ALL"), fields: this.optIdioms(n, "group") ?? [] } : undefined,
      order,
      limit: expr("limit"),
      start: expr("start"),
      fetch: this.optIdioms(n, "fetch"),
      version: expr("version"),
      ...this.tail(n),
      explain: has(n, "EXPLAIN") ? { full: has(n, "FULL") } : undefined,
      pos: this.pos(n),
    };
  }

  private create(n: Node): A.CreateStatement {
    return { kind: "Create", only: has(n, "ONLY"), what: this.targets(n), data: this.data(n), output: this.output(n), ...this.tail(n), pos: this.pos(n) };
  }

  private update(n: Node): A.UpdateStatement {
    const cond = node(n, "cond");
    return {
      kind: has(n, "UPSERT") ? "Upsert" : "Update",
      only: has(n, "ONLY"),
      what: this.targets(n),
      data: this.data(n),
      cond: cond && this.expr(cond),
      output: this.output(n),
      ...this.tail(n),
      pos: this.pos(n),
    };
  }

  private delete(n: Node): A.DeleteStatement {
    const cond = node(n, "cond");
    return { kind: "Delete", only: has(n, "ONLY"), what: this.targets(n), cond: cond && this.expr(cond), output: this.output(n), ...this.tail(n), pos: this.pos(n) };
  }

  private insert(n: Node): A.InsertStatement {
    const into = tok(n, "into"), intoParam = tok(n, "intoParam");
    let data: A.InsertData;
    if (has(n, "VALUES")) {
      data = {
        kind: "Values",
        fields: this.idioms(req(node(n, "idiomList"))),
        rows: nodes(n, "valuesRow").map((r) => nodes(r, "expr").map((e) => this.expr(e))),
      };
    } else data = { kind: "Single", value: this.expr(req(node(n, "expr"))) };
    const update = has(n, "DUPLICATE") ? nodes(n, "assignment").map((a) => this.assignment(a)) : undefined;
    return {
      kind: "Insert",
      into: intoParam ? { kind: "Param", name: intoParam.image.slice(1) } : into ? { kind: "Table", name: this.nameText(into) } : undefined,
      relation: has(n, "RELATION"),
      ignore: has(n, "IGNORE"),
      data,
      update,
      output: this.output(n),
      ...this.tail(n),
      pos: this.pos(n),
    };
  }

  private relateValue(n: Node): A.Expr {
    const p = tok(n, "Param");
    if (p) return { kind: "Param", name: p.image.slice(1), pos: this.pos(p) };
    const arr = node(n, "array");
    if (arr) return this.array(arr);
    const sq = node(n, "subquery");
    if (sq) return this.subquery(sq);
    const name = this.nameText(req(tok(n, "IdentName")));
    const key = node(n, "recordKey");
    return key ? { kind: "RecordId", table: name, key: this.recordKey(key), pos: this.pos(n) } : { kind: "Table", name, pos: this.pos(n) };
  }

  private relate(n: Node): A.RelateStatement {
    const first = this.relateValue(req(node(n, "first")));
    const through = this.relateValue(req(node(n, "through")));
    const last = this.relateValue(req(node(n, "last")));
    const reversed = has(n, "LeftArrow");
    return {
      kind: "Relate",
      only: has(n, "ONLY"),
      from: reversed ? last : first,
      through,
      to: reversed ? first : last,
      uniq: has(n, "UNIQUE"),
      data: this.data(n),
      output: this.output(n),
      ...this.tail(n),
      pos: this.pos(n),
    };
  }

  private live(n: Node): A.LiveStatement {
    const f = node(n, "fields");
    const cond = node(n, "cond");
    return {
      kind: "Live",
      diff: has(n, "DIFF"),
      fields: f ? this.fields(f) : { value: false, items: [{ kind: "All" }] },
      what: this.target(this.expr(req(node(n, "what")))),
      cond: cond && this.expr(cond),
      fetch: this.optIdioms(n, "idiomList"),
      pos: this.pos(n),
    };
  }

  // ───────────── expressions ─────────────

  expr(n: Node): A.Expr {
    const operands = nodes(n, "unary");
    if (operands.length === 1) return this.unary(operands[0]);
    const opNodes = nodes(n, "binaryOp");
    const ops = opNodes.map((o) => this.binaryOp(o));
    const values = operands.map((u) => this.unary(u));
    // Precedence climbing over the flat operand/operator list (all operators left-associative).
    let i = 0;
    const climb = (minPrec: number): A.Expr => {
      let left = values[i];
      while (i < ops.length && precedence(ops[i]) >= minPrec) {
        const at = i;
        const op = ops[i++];
        const prec = precedence(op);
        const right = climb(prec + 1);
        if (nonAssociative(op) && left.kind === "Binary" && nonAssociative(left.op)) {
          this.fail(firstToken(opNodes[at]), "Chaining relational operators have no defined associativity.");
        }
        left = { kind: "Binary", op, left, right };
      }
      return left;
    };
    return climb(0);
  }

  private binaryOp(n: Node): A.BinaryOp {
    if (has(n, "IS")) return has(n, "NOT") ? "!=" : "=";
    if (has(n, "NOT")) return "NOTINSIDE";
    const t = req(tok(n, "BinaryOpToken"));
    if (t.tokenType.name === "SetOp") return setOps[t.image];
    return opText[t.tokenType.name];
  }

  private unary(n: Node): A.Expr {
    const prefix = tok(n, "prefix");
    if (prefix) {
      const inner = req(node(n, "unary"));
      // a prefix binds tighter than a range (`-2..2` begins at -2); a cast takes the whole range (`<array> 1..5`)
      const range = node(inner, "valueRange");
      if (range && onlyChild(inner)[0] !== "valueRange") return this.valueRange(range, this.prefixOp(prefix, inner, true), n);
      return this.prefixOp(prefix, inner, false);
    }
    const t = node(n, "type");
    if (t) return { kind: "Cast", type: this.type(t), expr: this.unary(req(node(n, "unary"))), pos: this.pos(n) };
    const range = node(n, "valueRange");
    if (range) return this.valueRange(range, onlyChild(n)[0] === "valueRange" ? undefined : this.postfixExpr(n), n);
    return this.postfixExpr(n);
  }

  /** `-x`, `!x`, `+x` over `inner` (without its range tail when `bare`). */
  private prefixOp(prefix: IToken, inner: Node, bare: boolean): A.Expr {
    const op = prefix.image as A.UnaryOp;
    // `-` before a bare number is part of the literal, so i64's minimum reads
    const num = tok(inner, "NumberLiteral");
    if (op === "-" && num && !tok(inner, "prefix") && !node(inner, "type") && nodes(inner, "postfix").length === 0) {
      return { kind: "Literal", value: this.number({ ...num, image: `-${num.image}` }), pos: this.pos(prefix) };
    }
    const operand = bare ? this.postfixExpr(inner) : this.unary(inner);
    if (op === "-" && operand.kind === "Literal" && (typeof operand.value === "bigint" || typeof operand.value === "number")) {
      return { kind: "Literal", value: -operand.value, pos: this.pos(prefix) };
    }
    if (op === "-" && operand.kind === "Literal" && operand.value instanceof Decimal) {
      const text = operand.value.text;
      return { kind: "Literal", value: new Decimal(text.startsWith("-") ? text.slice(1) : "-" + text), pos: this.pos(prefix) };
    }
    return { kind: "Unary", op, operand, pos: this.pos(prefix) };
  }

  /** `a..b`, `a..=b`, `..b`, `a..`, `..`: the begin (if any) is included. */
  private valueRange(n: Node, begin: A.Expr | undefined, at: Node): A.RangeExpr {
    const end = node(n, "end");
    const inclusive = req(tok(n, "op")).image === "..=";
    return { kind: "RangeValue", begin, end: end && { expr: this.unary(end), inclusive }, pos: this.pos(at) };
  }

  /** A path: a name, a param or a graph step, then postfix parts. */
  private plainIdiom(n: Node): A.IdiomExpr {
    const t = tok(n, "IdentName"), p = tok(n, "Param");
    const parts: A.IdiomPart[] = t
      ? [{ kind: "Field", name: this.nameText(t) }]
      : p
        ? [{ kind: "Start", value: { kind: "Param", name: p.image.slice(1), pos: this.pos(p) } }]
        : [this.graph(req(node(n, "graphStep")))];
    for (const x of nodes(n, "postfix")) parts.push(this.postfix(x));
    return { kind: "Idiom", parts, pos: this.pos(n) };
  }

  /** A primary and its postfix parts: the children of a unary node (the primary's first, then `postfix`). */
  postfixExpr(n: Node): A.Expr {
    const base = this.primary(n);
    const posts = nodes(n, "postfix");
    if (posts.length === 0) return base;
    const parts: A.IdiomPart[] = base.kind === "Idiom" ? [...base.parts] : [{ kind: "Start", value: base }];
    for (const p of posts) parts.push(this.postfix(p));
    return { kind: "Idiom", parts, pos: base.pos };
  }

  private postfix(n: Node): A.IdiomPart {
    if (has(n, "Dot")) {
      if (has(n, "Star")) return { kind: "All" };
      const name = this.nameText(req(tok(n, "IdentName")));
      const args = node(n, "args");
      return args ? { kind: "Method", name, args: nodes(args, "expr").map((e) => this.expr(e)) } : { kind: "Field", name };
    }
    if (has(n, "LBracket")) {
      if (has(n, "Star")) return { kind: "All" };
      if (has(n, "Dollar")) return { kind: "Last" };
      const w = node(n, "where");
      if (w) return { kind: "Where", cond: this.expr(w) };
      return { kind: "Index", index: this.expr(req(node(n, "index"))) };
    }
    const g = node(n, "graphStep");
    if (g) return this.graph(g);
    if (has(n, "Question")) return { kind: "Optional" };
    return { kind: "Flatten" };
  }

  private graph(n: Node): A.GraphPart {
    const dir = req(tok(n, "dir")).image as A.GraphPart["dir"];
    const cond = node(n, "cond"), alias = node(n, "alias");
    return {
      kind: "Graph",
      dir,
      what: toks(n, "what").map((w) => this.nameText(w)),
      cond: cond && this.expr(cond),
      alias: alias && this.plainIdiom(alias),
    };
  }

  private primary(n: Node): A.Expr {
    const [key, list] = onlyChild(n);
    const el = list[0];
    if (isToken(el)) {
      const pos = this.pos(el);
      switch (key) {
        case "StringLiteral": return { kind: "Literal", value: this.string(el), pos };
        case "PrefixedString": return this.prefixed(el);
        case "NumberLiteral": return { kind: "Literal", value: this.number(el), pos };
        case "DurationLiteral": return { kind: "Literal", value: this.duration(el), pos };
        case "NONE": return { kind: "Literal", value: undefined, pos };
        case "NULL": return { kind: "Literal", value: null, pos };
        case "TRUE": return { kind: "Literal", value: true, pos };
        case "FALSE": return { kind: "Literal", value: false, pos };
        case "Param": return { kind: "Param", name: el.image.slice(1), pos };
      }
      throw new Error(`internal: primary token ${key}`);
    }
    if (key === "braced" || key === "piped") return this.primary(el);
    switch (key) {
      case "array": return this.array(el);
      case "object": return this.object(el);
      case "block": return this.block(el);
      case "subquery": return this.subquery(el);
      case "graphStep": return { kind: "Idiom", parts: [this.graph(el)], pos: this.pos(el) };
      case "closure": return this.closure(el);
      case "mock": {
        const to = tok(el, "to");
        return { kind: "Mock", table: this.nameText(req(tok(el, "IdentName"))), from: BigInt(req(tok(el, "from")).image), to: to && BigInt(to.image), pos: this.pos(el) };
      }
      case "identStart": return this.identStart(el);
      case "ifStmt":
      case "selectStmt":
      case "createStmt":
      case "updateStmt":
      case "deleteStmt":
      case "insertStmt":
      case "relateStmt":
      case "defineStmt":
      case "removeStmt":
        return { kind: "Subquery", inner: this.statementFrom(key, el), pos: this.pos(el) };
    }
    throw new Error(`internal: primary ${key}`);
  }

  array(n: Node): A.ArrayExpr {
    return { kind: "Array", items: nodes(n, "expr").map((e) => this.expr(e)), pos: this.pos(n) };
  }

  private objectEntries(n: Node): { key: string; value: A.Expr }[] {
    return nodes(n, "objectEntry").map((e) => {
      const nm = tok(e, "IdentName");
      const s = tok(e, "StringLiteral");
      const num = tok(e, "NumberLiteral");
      const key = nm ? this.nameText(nm) : s ? this.string(s) : req(num).image;
      return { key, value: this.expr(req(node(e, "expr"))) };
    });
  }

  private object(n: Node): A.ObjectExpr {
    return { kind: "Object", entries: this.objectEntries(n), pos: this.pos(n) };
  }

  block(n: Node): A.BlockExpr {
    return { kind: "Block", statements: this.statements(nodes(n, "statement")), pos: this.pos(n) };
  }

  private subquery(n: Node): A.SubqueryExpr | A.LiteralExpr {
    let inner = this.statement(req(node(n, "statement")));
    const y = node(n, "pointY");
    if (y === undefined) {
      // `(IF …)`: SurrealDB keeps the IF as a value inside the parentheses, so it prints them back.
      if (inner.kind === "If") inner = { kind: "Expr", expr: { kind: "Subquery", inner, pos: inner.pos } };
      return { kind: "Subquery", inner, pos: this.pos(n) };
    }
    // `(x, y)`: a point; both coordinates must be number literals.
    const yv = this.expr(y);
    const num = (e: A.Expr): number | undefined =>
      e.kind === "Literal" && (typeof e.value === "number" || typeof e.value === "bigint") ? Number(e.value) : e.kind === "Literal" && e.value instanceof Decimal ? Number(e.value.text) : undefined;
    const x = inner.kind === "Expr" ? num(inner.expr) : undefined;
    const yn = num(yv);
    if (x === undefined || yn === undefined) this.fail(firstToken(n), "Unexpected token `(`, expected a geometry point of two numbers");
    return { kind: "Literal", value: new Geometry("Point", [x, yn]), pos: this.pos(n) };
  }

  private closure(n: Node): A.ClosureExpr {
    const ret = node(n, "returns");
    return {
      kind: "Closure",
      args: nodes(n, "closureArg").map((a) => {
        const t = node(a, "typeSingle");
        return { name: req(tok(a, "Param")).image.slice(1), type: t && this.typeSingle(t) };
      }),
      returns: ret && this.type(ret),
      body: this.expr(req(node(n, "expr"))),
      pos: this.pos(n),
    };
  }

  private identStart(n: Node): A.Expr {
    const names = toks(n, "IdentName");
    const pos = this.pos(n);
    const first = this.nameText(names[0]);
    const key = node(n, "recordKey");
    if (key) return { kind: "RecordId", table: first, key: this.recordKey(key), pos };
    const args = node(n, "args");
    if (names.length === 1) {
      if (args) return { kind: "Call", name: first.toLowerCase(), args: nodes(args, "expr").map((e) => this.expr(e)), pos };
      return { kind: "Idiom", parts: [{ kind: "Field", name: first }], pos };
    }
    const path = names.map((x) => this.nameText(x));
    if (!args) return { kind: "Constant", name: path.join("::"), pos };
    const name = path[0].toLowerCase() === "fn" ? ["fn", ...path.slice(1)].join("::") : path.join("::").toLowerCase();
    return { kind: "Call", name, args: nodes(args, "expr").map((e) => this.expr(e)), pos };
  }

  /** A key (its parts are the node's own children) or a range: the key's parts, then `rangeTail`. */
  recordKey(n: Node): A.RecordKeyExpr {
    const tail = nodes(n, "rangeTail")[0];
    if (tail === undefined) return this.recordKeyValue(n);
    const end = node(tail, "end");
    return {
      kind: "Range",
      begin: onlyChild(n)[0] === "rangeTail" ? undefined : { key: this.recordKeyValue(n), inclusive: !has(tail, "exclusive") },
      end: end && { key: this.recordKeyValue(end), inclusive: req(tok(tail, "op")).tokenType.name === "DotDotEq" },
    };
  }

  private recordKeyValue(n: Node): A.RecordKeyExpr {
    const num = tok(n, "NumberLiteral");
    if (num) {
      if (/^\d+$/.test(num.image)) {
        // Integer keys in i64 range are numbers; longer digit runs are string keys (as SurrealDB reads them).
        const big = parseI64((has(n, "Minus") ? "-" : "") + num.image);
        if (big !== undefined) return { kind: "Number", value: big };
        return { kind: "String", value: (has(n, "Minus") ? "-" : "") + num.image };
      }
      // `user:1e5`, `user:2f`, `user:1_000` are identifier-like keys; `user:1.5` is not a key.
      if (!has(n, "Minus") && /^\d+[A-Za-z_]\w*$/.test(num.image)) return { kind: "String", value: num.image };
      const v = this.number(num);
      if (typeof v !== "bigint") this.fail(num, `Unexpected token \`${num.image}\`, expected an integer record-id key`);
      return { kind: "Number", value: has(n, "Minus") ? -v : v };
    }
    const ni = tok(n, "NumIdent") ?? tok(n, "DurationLiteral");
    if (ni) return { kind: "String", value: ni.image };
    const ps = tok(n, "PrefixedString");
    if (ps) {
      const content = this.string({ ...ps, image: ps.image.slice(1) });
      if (ps.image[0].toLowerCase() === "u") {
        const u = uuidFromText(content);
        if (u === undefined) this.fail(ps, `Unexpected token \`${ps.image}\`, expected a uuid`);
        return { kind: "Uuid", value: u };
      }
      return { kind: "String", value: content };
    }
    const s = tok(n, "StringLiteral");
    if (s) return { kind: "String", value: this.string(s) };
    const arr = node(n, "array");
    if (arr) return { kind: "Array", items: this.array(arr).items };
    const obj = node(n, "object");
    if (obj) return { kind: "Object", entries: this.objectEntries(obj) };
    const name = req(tok(n, "IdentName"));
    const text = this.nameText(name);
    if (has(n, "LParen")) {
      const g = text.toLowerCase();
      if (g !== "rand" && g !== "ulid" && g !== "uuid") this.fail(firstToken(name), `Unexpected token \`${text}\`, expected one of \`rand\`, \`ulid\`, \`uuid\``);
      return { kind: "Generate", generator: g };
    }
    return { kind: "String", value: text };
  }

  // ───────────── types ─────────────

  type(n: Node): A.TypeKind {
    const singles = nodes(n, "typeSingle").map((s) => this.typeSingle(s));
    return singles.length === 1 ? singles[0] : { kind: "Either", types: singles };
  }

  /** Names listed in `record<a | b>` / `geometry<point | line>`. */
  private typeNames(n: Node): string[] {
    return nodes(n, "typeSingle").map((s) => {
      const nm = tok(s, "IdentName");
      if (nm === undefined || has(s, "Lt")) this.fail(firstToken(s), "Unexpected token, expected a table name", ["an identifier"]);
      return this.nameText(nm);
    });
  }

  private typeSingle(n: Node): A.TypeKind {
    const nm = tok(n, "IdentName");
    if (nm === undefined) {
      const s = tok(n, "StringLiteral");
      if (s) return { kind: "Literal", value: { kind: "Literal", value: this.string(s) } };
      const num = tok(n, "NumberLiteral");
      if (num) {
        const v = this.number(num);
        const neg = has(n, "Minus");
        return { kind: "Literal", value: { kind: "Literal", value: neg ? (typeof v === "bigint" ? -v : typeof v === "number" ? -v : v) : v } };
      }
      const d = tok(n, "DurationLiteral");
      if (d) return { kind: "Literal", value: { kind: "Literal", value: this.duration(d) } };
      const arr = node(n, "array");
      if (arr) return { kind: "Literal", value: this.array(arr) };
      return { kind: "Literal", value: this.object(req(node(n, "object"))) };
    }
    const raw = this.nameText(nm);
    const name = raw.toLowerCase();
    const inner = node(n, "type");
    const maxTok = tok(n, "max");
    const max = maxTok ? Number(maxTok.image) : undefined;
    switch (name) {
      case "option": {
        if (!inner) this.fail(firstToken(nm), "Unexpected token `option`, expected `<`", ["`<`"]);
        // SurrealDB 2.6 rejects option<any>; accepted here (the printer's round-trip properties generate it).
        return { kind: "Option", inner: this.type(inner) };
      }
      case "array":
      case "set":
        return { kind: name === "array" ? "Array" : "Set", inner: inner && this.type(inner), max };
      case "record":
        return { kind: "Record", tables: inner ? this.typeNames(inner) : [] };
      case "geometry":
        return { kind: "Geometry", types: inner ? this.typeNames(inner) : [] };

      case "true": case "false":
        return { kind: "Literal", value: { kind: "Literal", value: name === "true" } };
    }
    if (basicTypes.has(name) && !inner) return { kind: "Basic", name: name as A.BasicTypeName };
    this.fail(firstToken(nm), `Unexpected token \`${raw}\`, expected a kind name`, ["a kind name"]);
  }
}

type DefineCommon = { ifNotExists: boolean; overwrite: boolean; comment: string | undefined; pos: A.Pos | undefined };

/** Record-id text → RecordIdExpr (used for `r"…"` literals); set by index.ts to avoid a cycle. */
export let parseRecordIdExpr: (text: string) => A.RecordIdExpr = () => {
  throw new Error("not initialised");
};
export function setRecordIdParser(fn: (text: string) => A.RecordIdExpr): void {
  parseRecordIdExpr = fn;
}

/** RecordKeyExpr with only literal parts → RecordIdKey value (undefined if it holds expressions or a generator). */
export function recordKeyValue(k: A.RecordKeyExpr): RecordIdKey | undefined {
  switch (k.kind) {
    case "Number": return k.value;
    case "String": return k.value;
    case "Uuid": return k.value instanceof Uuid ? k.value : new Uuid(String(k.value));
    case "Array": {
      const out: Value[] = [];
      for (const e of k.items) {
        const v = literalValue(e);
        if (v === noValue) return undefined;
        out.push(v as Value);
      }
      return out;
    }
    case "Object": {
      const out: Record<string, Value> = {};
      for (const { key, value } of k.entries) {
        const v = literalValue(value);
        if (v === noValue) return undefined;
        out[key] = v as Value;
      }
      return out;
    }
    default: return undefined;
  }
}

const noValue = Symbol("noValue");
function literalValue(e: A.Expr): Value | typeof noValue {
  if (e.kind === "Literal") return e.value;
  if (e.kind === "Array") {
    const out: Value[] = [];
    for (const i of e.items) {
      const v = literalValue(i);
      if (v === noValue) return noValue;
      out.push(v);
    }
    return out;
  }
  if (e.kind === "Object") {
    const out: Record<string, Value> = {};
    for (const { key, value } of e.entries) {
      const v = literalValue(value);
      if (v === noValue) return noValue;
      out[key] = v;
    }
    return out;
  }
  if (e.kind === "RecordId") {
    const key = recordKeyValue(e.key);
    return key === undefined ? noValue : new RecordId(e.table, key);
  }
  return noValue;
}
