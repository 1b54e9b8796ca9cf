// CLI: identity specs — one string naming who runs a query (`root`, `viewer@db`, `record account signin {…}` …), parsed
// once and signed in on a Connection of an engine; shared by `surql-auth test` and `explain --as`.

import { randomUUID } from "node:crypto";
import { parseExpr, parseRecordId } from "../../grammar/index.js";
import type { Expr } from "../ast/nodes.js";
import { LocalError, ParseError } from "../errors/index.js";
import { ownerSession } from "../import.js";
import { Connection, type SurqlAuth } from "../index.js";
import { escapeIdent, toSql } from "../value/index.js";
import { isValueObject, type RecordId, type ValueObject } from "../value/types.js";

export type Level = "root" | "ns" | "db";
export type RoleName = "OWNER" | "EDITOR" | "VIEWER";

export type IdentitySpec =
  | { readonly kind: "root" }
  | { readonly kind: "anonymous" }
  /** A synthetic system user with one role, defined on first use. */
  | { readonly kind: "role"; readonly role: RoleName; readonly level: Level }
  /** A system user the schema defines, with its password. */
  | { readonly kind: "user"; readonly name: string; readonly level: Level; readonly password: string }
  /** A record (v1 scope) user through its access method's SIGNUP or SIGNIN, with these variables. */
  | { readonly kind: "record"; readonly access: string; readonly via: "signup" | "signin"; readonly vars: Expr; readonly varsText: string }
  /** A record user bound to a record, as a token of the access naming it gives (no SIGNIN runs). */
  | { readonly kind: "bound"; readonly access: string; readonly record: RecordId }
  /** Whoever a token names (RPC authenticate). */
  | { readonly kind: "token"; readonly token: string };

/** A malformed identity spec; `column` (1-based) is where in the spec text. */
export class IdentitySpecError extends LocalError {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super("Usage", message);
  }
}

/** The forms, for help texts and errors. */
export const IDENTITY_FORMS = `root | anonymous | ROLE@LEVEL (owner|editor|viewer @ root|ns|db) | user NAME@LEVEL PASSWORD
| record ACCESS signup {VARS} | record ACCESS signin {VARS} | record ACCESS as RECORD-ID | token JWT`;

const LEVELS: Record<string, Level> = { root: "root", ns: "ns", namespace: "ns", db: "db", database: "db" };
const IDENT = "[A-Za-z_][A-Za-z0-9_]*";

/** Parses a sub-text of a spec with `parse`, moving a ParseError's column to its place in the spec. */
function within<T>(text: string, at: number, parse: (t: string) => T): T {
  try {
    return parse(text);
  } catch (e) {
    if (e instanceof ParseError) throw new IdentitySpecError(e.message.split("\n")[0]!, at + (e.line === 1 ? e.column - 1 : 0) + 1);
    throw e;
  }
}

/** A password: a quoted SurrealQL string, or the rest of the spec as written. */
function password(text: string, at: number): string {
  if (!/^['"]/.test(text)) return text;
  const v = within(text, at, parseExpr);
  if (v.kind !== "Literal" || typeof v.value !== "string") throw new IdentitySpecError("the password must be one quoted string", at + 1);
  return v.value;
}

/** Parses an identity spec (see IDENTITY_FORMS); throws IdentitySpecError. */
export function parseIdentity(spec: string): IdentitySpec {
  const lead = spec.length - spec.trimStart().length;
  const t = spec.trim();
  if (/^root$/i.test(t)) return { kind: "root" };
  if (/^(anonymous|guest)$/i.test(t)) return { kind: "anonymous" };
  const role = /^(owner|editor|viewer)@(\w+)$/i.exec(t);
  if (role) return { kind: "role", role: role[1]!.toUpperCase() as RoleName, level: level(role[2]!, lead + role[1]!.length + 2) };
  const user = new RegExp(`^user\\s+(${IDENT})@(\\w+)\\s+(\\S.*)$`, "is").exec(t);
  if (user) {
    const at = lead + t.length - user[3]!.length;
    return { kind: "user", name: user[1]!, level: level(user[2]!, lead + t.indexOf("@") + 1), password: password(user[3]!, at) };
  }
  const rec = new RegExp(`^record\\s+(${IDENT})\\s+(signup|signin|as)\\s+(\\S.*)$`, "is").exec(t);
  if (rec) {
    const rest = rec[3]!;
    const at = lead + t.length - rest.length;
    if (rec[2]!.toLowerCase() === "as") return { kind: "bound", access: rec[1]!, record: within(rest, at, parseRecordId) };
    const vars = within(rest, at, parseExpr);
    if (vars.kind !== "Object") throw new IdentitySpecError(`the ${rec[2]!.toLowerCase()} variables must be an object, e.g. { email: "ann@example.com", pass: "…" }`, at + 1);
    return { kind: "record", access: rec[1]!, via: rec[2]!.toLowerCase() as "signup" | "signin", vars, varsText: rest };
  }
  const token = /^token\s+(\S+)$/i.exec(t);
  if (token) return { kind: "token", token: token[1]! };
  throw new IdentitySpecError(`unknown identity '${t}'; expected ${IDENTITY_FORMS.replace(/\n/g, " ")}`, lead + 1);
}

function level(text: string, column: number): Level {
  const l = LEVELS[text.toLowerCase()];
  if (!l) throw new IdentitySpecError(`unknown level '${text}'; expected root, ns or db`, column);
  return l;
}

/** The spec as one line, for labels: passwords left out, tokens shortened (the other forms read back as they were). */
export function formatIdentity(spec: IdentitySpec): string {
  switch (spec.kind) {
    case "root":
    case "anonymous":
      return spec.kind;
    case "role":
      return `${spec.role.toLowerCase()}@${spec.level}`;
    case "user":
      return `user ${spec.name}@${spec.level}`;
    case "record":
      return `record ${spec.access} ${spec.via} ${spec.varsText.replace(/\s+/g, " ")}`;
    case "bound":
      return `record ${spec.access} as ${toSql(spec.record)}`;
    case "token":
      return `token ${spec.token.slice(0, 12)}…`;
  }
}

/** Where the identity works: its namespace and database (sign-in target of ns / db users and record users). */
export interface Where {
  readonly ns: string | undefined;
  readonly db: string | undefined;
}

const LEVEL_BASE: Record<Level, string> = { root: "ROOT", ns: "NAMESPACE", db: "DATABASE" };

/** Synthetic role users defined so far, per engine (a redefinition would end their earlier sessions). */
const defined = new WeakMap<SurqlAuth, Map<string, string>>();

/** Defines (once per engine) the user standing for `role@level` and returns its name and password. */
async function roleUser(auth: SurqlAuth, role: RoleName, lvl: Level, where: Where): Promise<{ name: string; pass: string }> {
  const name = `rule_test_${role.toLowerCase()}_${lvl}`;
  const users = defined.get(auth) ?? new Map<string, string>();
  defined.set(auth, users);
  let pass = users.get(name);
  if (pass === undefined) {
    pass = randomUUID();
    const root = rootConnection(auth, where);
    const [res] = await root.query(`DEFINE USER ${escapeIdent(name)} ON ${LEVEL_BASE[lvl]} PASSWORD ${toSql(pass)} ROLES ${role}`);
    if (res?.status !== "OK") throw new Error(`cannot define ${role.toLowerCase()}@${lvl}: ${String(res?.result)}`);
    users.set(name, pass);
  }
  return { name, pass };
}

/** A connection with a root owner's rights, on `where` (the embedded API's owner, no user defined). */
export function rootConnection(auth: SurqlAuth, where: Where): Connection {
  const session = ownerSession();
  session.ns = where.ns;
  session.db = where.db;
  return new Connection(auth.serverContext(), session);
}

/** The credentials object a system user's signin sends at `lvl`. */
function systemVars(lvl: Level, where: Where, user: string, pass: string): ValueObject {
  const scope: ValueObject = lvl === "root" ? {} : lvl === "ns" ? { NS: where.ns } : { NS: where.ns, DB: where.db };
  return { ...scope, user, pass };
}

/**
 * A new connection of `auth` signed in as `spec`, using `where`. A refused sign-in throws the Connection's error (an
 * RpcError whose `cause` is the SurrealError, e.g. InvalidAuth).
 */
export async function connectAs(auth: SurqlAuth, spec: IdentitySpec, where: Where): Promise<Connection> {
  if (spec.kind === "root") return rootConnection(auth, where);
  const conn = auth.connect({ ...(where.ns !== undefined ? { ns: where.ns } : {}), ...(where.db !== undefined ? { db: where.db } : {}) });
  switch (spec.kind) {
    case "anonymous":
      return conn;
    case "role": {
      const { name, pass } = await roleUser(auth, spec.role, spec.level, where);
      await conn.signin(systemVars(spec.level, where, name, pass));
      break;
    }
    case "user":
      await conn.signin(systemVars(spec.level, where, spec.name, spec.password));
      break;
    case "record": {
      const vars = await auth.engine.evaluate(spec.vars, ownerSession());
      if (!isValueObject(vars)) throw new Error("the sign-in variables are not an object");
      const target = { NS: where.ns, DB: where.db, [auth.compat === 1 ? "SC" : "AC"]: spec.access };
      await (spec.via === "signup" ? conn.signup({ ...vars, ...target }) : conn.signin({ ...vars, ...target }));
      return conn;
    }
    case "bound": {
      if (where.ns === undefined || where.db === undefined) throw new Error("a record user needs a namespace and a database");
      await auth.iam.bindRecord(conn.session, where.ns, where.db, spec.access, spec.record);
      return conn;
    }
    case "token":
      await conn.authenticate(spec.token);
      break;
  }
  // system users land on their level; queries run on `where`
  if (where.ns !== undefined) await conn.use(where.ns, where.db ?? null);
  return conn;
}

/** The message of a Connection's error: the SurrealError behind an RpcError (as SurrealDB words it). */
export function errorMessage(e: unknown): string {
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
