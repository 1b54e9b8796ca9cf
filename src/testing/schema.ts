// What the fuzzer needs to know of a user's schema, read from its parsed text: the tables and their fields (TYPE,
// ASSERT, VALUE), the DEFINE PARAMs and functions, and the record access methods with the variables their SIGNUP reads.

import { parse } from "../../grammar/index.js";
import type { Statement, TypeKind } from "../ast/nodes.js";
import { printExpr } from "../ast/print.js";

export interface FieldShape {
  /** As written, without escapes: `email`, `info.secret`, `emails[*].addr`. */
  readonly path: string;
  readonly type: TypeKind | undefined;
  /** The ASSERT clause as INFO prints it. */
  readonly assert: string | undefined;
  /** A VALUE clause computes the field: nothing is generated for it. */
  readonly computed: boolean;
}

export interface TableShape {
  readonly name: string;
  readonly ns: string;
  readonly db: string;
  readonly schemafull: boolean;
  /** A TYPE RELATION table's ends (empty: any). */
  readonly relation: { readonly from: readonly string[]; readonly to: readonly string[] } | undefined;
  readonly fields: readonly FieldShape[];
}

export interface AccessShape {
  readonly name: string;
  readonly ns: string;
  readonly db: string;
  /** The SIGNUP clause as INFO prints it. */
  readonly signup: string | undefined;
  /** The variables SIGNUP reads (neither system variables nor DEFINE PARAMs), each with the field it sets if seen. */
  readonly signupVars: readonly { readonly name: string; readonly field: string | undefined }[];
  /** The table SIGNUP creates its record in, if seen. */
  readonly table: string | undefined;
}

export interface SchemaShape {
  readonly tables: readonly TableShape[];
  readonly params: readonly { readonly ns: string; readonly db: string; readonly name: string }[];
  readonly functions: readonly { readonly ns: string; readonly db: string; readonly name: string; readonly args: number }[];
  readonly accesses: readonly AccessShape[];
}

/** Variables the engine sets itself: a SIGNUP reading one does not make it a signup variable. */
const SYSTEM_VARS = new Set(["auth", "session", "token", "access", "scope", "this", "value", "input", "parent", "before", "after", "event"]);

/** The variables a SIGNUP text reads, and the field each sets (`field = $var` or `field: $var`). */
function signupVars(text: string, params: ReadonlySet<string>): AccessShape["signupVars"] {
  const names = [...new Set([...text.matchAll(/\$(\w+)/g)].map((m) => m[1]!))].filter((n) => !SYSTEM_VARS.has(n) && !params.has(n));
  return names.map((name) => ({ name, field: new RegExp(`(\\w+)\\s*(?:=|:)\\s*\\$${name}\\b`).exec(text)?.[1] }));
}

/** Reads the tables, fields, params, functions and record access methods of a schema text (USE selects ns / db). */
export function readSchema(text: string): SchemaShape {
  let ns = "";
  let db = "";
  const tables = new Map<string, { shape: Omit<TableShape, "fields">; fields: FieldShape[] }>();
  const params: { ns: string; db: string; name: string }[] = [];
  const functions: { ns: string; db: string; name: string; args: number }[] = [];
  const accesses: Omit<AccessShape, "signupVars">[] = [];
  const table = (name: string): { shape: Omit<TableShape, "fields">; fields: FieldShape[] } => {
    const k = `${ns}/${db}/${name}`;
    if (!tables.has(k)) tables.set(k, { shape: { name, ns, db, schemafull: false, relation: undefined }, fields: [] });
    return tables.get(k)!;
  };
  const visit = (s: Statement): void => {
    if (s.kind === "Use") {
      if (s.ns !== undefined) [ns, db] = [s.ns, s.db ?? ""];
      else if (s.db !== undefined) db = s.db;
    } else if (s.kind === "DefineTable") {
      const t = table(s.name);
      t.shape = { ...t.shape, schemafull: s.schemafull, relation: s.tableType.kind === "Relation" ? { from: s.tableType.from, to: s.tableType.to } : undefined };
    } else if (s.kind === "DefineField") {
      const path = printExpr(s.name).replace(/`([^`]*)`|⟨([^⟩]*)⟩/g, "$1$2");
      const fields = table(s.table).fields;
      const field = { path, type: s.type, assert: s.assert && printExpr(s.assert), computed: s.value !== undefined };
      const i = fields.findIndex((f) => f.path === path);
      if (i >= 0) fields[i] = field;
      else fields.push(field);
    } else if (s.kind === "DefineParam") params.push({ ns, db, name: s.name });
    else if (s.kind === "DefineFunction") functions.push({ ns, db, name: s.name, args: s.args.length });
    else if (s.kind === "DefineAccess" && s.base === "DATABASE" && s.access.kind === "Record") {
      const signup = s.access.signup && printExpr(s.access.signup);
      const created = signup && /\b(?:CREATE|INSERT INTO|UPSERT)\s+(?:ONLY\s+)?(?:type::(?:thing|record)\(\s*'(\w+)'|(\w+))/i.exec(signup);
      accesses.push({ name: s.name, ns, db, signup, table: created ? (created[1] ?? created[2]) : undefined });
    }
  };
  for (const s of parse(text)) visit(s);
  return {
    tables: [...tables.values()].map((t) => ({ ...t.shape, fields: t.fields })),
    params,
    functions,
    accesses: accesses.map((a) => ({ ...a, signupVars: a.signup ? signupVars(a.signup, new Set(params.filter((p) => p.ns === a.ns && p.db === a.db).map((p) => p.name))) : [] })),
  };
}
