// iam/: identity specs — one string naming who runs a query (`root`, `viewer@db`, `record account signin {…}` …),
// parsed once: by the CLI (`surql-auth test`, `explain --as`, cli/identity.ts signs them in) and by POST /explain.

import { parseExpr, parseRecordId } from "../../grammar/index.js";
import type { Expr } from "../ast/nodes.js";
import { LocalError, ParseError } from "../errors/index.js";
import { toSql } from "../value/index.js";
import type { RecordId } from "../value/types.js";

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
