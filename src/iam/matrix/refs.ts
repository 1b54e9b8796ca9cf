// iam/matrix: what a rule refers to — the identity's variables (through custom functions too), the document's
// fields — and which table's records an access method's SIGNIN / SIGNUP returns.

import type { Expr, IdiomExpr, Statement } from "../../ast/nodes.js";
import { namesIn, type Reach } from "../../exec/access-reach.js";
import type { DatabaseEntry } from "../../store/catalog.js";

/** The engine variables that tell who asks. */
const IDENTITY_PARAMS = ["auth", "access", "scope", "token", "session"];

/** Does `cond` read an identity variable, directly or in a custom function it calls (over-approximated: a name is enough)? */
export function refersToIdentity(cond: Expr, db: DatabaseEntry | undefined): boolean {
  const reach: Reach = { functions: new Set(), params: new Set() };
  namesIn(cond, reach);
  const seen = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...reach.functions]) {
      if (seen.has(name)) continue;
      seen.add(name);
      grew = true;
      const fn = db?.functions.get(name);
      if (fn) namesIn(fn.body, reach);
    }
  }
  return IDENTITY_PARAMS.some((p) => reach.params.has(p));
}

/** Parameters that stand for the document itself. */
const DOC_PARAMS = new Set(["this", "self", "after", "before"]);

/**
 * The document fields a rule names (`owner` in `owner = $auth.id`, `$this.owner`, `$after.owner`): the top-level
 * name of each path. Subqueries, blocks, closures and `[WHERE …]` filters read other records or elements: skipped.
 */
export function fieldsNamed(node: unknown, into = new Set<string>()): Set<string> {
  if (node === null || typeof node !== "object") return into;
  if (Array.isArray(node)) {
    for (const n of node) fieldsNamed(n, into);
    return into;
  }
  const kind = (node as { kind?: unknown }).kind;
  if (kind === "Subquery" || kind === "Block" || kind === "Closure" || kind === "Graph" || kind === "Where") return into;
  if (kind === "Idiom") {
    const parts = (node as IdiomExpr).parts;
    const head = parts[0];
    if (head?.kind === "Field") into.add(head.name);
    else if (head?.kind === "Start" && head.value.kind === "Param" && DOC_PARAMS.has(head.value.name) && parts[1]?.kind === "Field") into.add(parts[1].name);
  }
  for (const v of Object.values(node)) fieldsNamed(v, into);
  return into;
}

/** Tables named as the target of a SELECT / CREATE / … statement. */
function targets(what: readonly Expr[]): string[] {
  return what.flatMap((w) => (w.kind === "Table" ? [w.name] : w.kind === "RecordId" ? [w.table] : []));
}

function statementTables(s: Statement): string[] {
  switch (s.kind) {
    case "Select":
    case "Create":
    case "Update":
    case "Upsert":
      return targets(s.what);
    case "Insert":
      return s.into && s.into.kind === "Table" ? [s.into.name] : [];
    case "Expr":
    case "Return":
      return resultTables(s.kind === "Expr" ? s.expr : s.value);
    case "If":
      return [...s.branches.map((b) => b.then), ...(s.otherwise ? [s.otherwise] : [])].flatMap(resultTables);
    default:
      // a statement that returns no stored record (LET, THROW, …): none (missing one only misses a flag)
      return [];
  }
}

/** The tables whose records a SIGNIN / SIGNUP clause returns: its last statement's targets. */
export function resultTables(e: Expr): string[] {
  if (e.kind === "Subquery") return statementTables(e.inner);
  if (e.kind === "Block") {
    const last = e.statements.at(-1);
    return last ? statementTables(last) : [];
  }
  if (e.kind === "Idiom" && e.parts[0]?.kind === "Start") return resultTables(e.parts[0].value);
  return [];
}
