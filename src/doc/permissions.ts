// doc/: table and field PERMISSIONS (auth.md §6.2) as the pipeline asks them — each one a `decide` (decide.ts).

import type { IdiomPart } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import type { Value, ValueObject } from "../value/types.js";
import { decide, decideQuick } from "./decide.js";
import type { Action, DocEnv } from "./env.js";
import { eachField, fieldsInOrder, getPath, withoutPaths } from "./paths.js";
import type { Path } from "./paths.js";

/** Does the table allow `action` on `doc`? True whenever the actor bypasses permissions. */
export async function checkPermissionsTable(
  env: DocEnv,
  table: TableEntry,
  action: Action,
  doc: Value,
  vars: Readonly<Record<string, Value>> = {},
): Promise<boolean> {
  // $input is NONE here, even inside an event or VALUE of another write (SurrealDB 1.5.4 and 2.6.0)
  return decide(env, { kind: "table", table }, action, doc, { ...vars, input: undefined });
}

/** Quick pre-check: NONE denies without evaluating anything (`doc`: the record, named when the refusal is reported). */
export function checkPermissionsQuick(env: DocEnv, table: TableEntry, action: Action, doc: Value): boolean {
  return decideQuick(env, { kind: "table", table }, action, doc);
}

/**
 * Paths of fields whose `select` permission denies them, in the order to remove them: every path a field's name covers
 * in `shape` (by default `doc`; `[*]` covers each element), judged against `doc` with `$value` the value there and `$this`
 * the record (NONE after a DELETE). FULL fields are judged only when someone listens (they cannot deny).
 */
export async function hiddenFields(env: DocEnv, table: TableEntry, doc: ValueObject | undefined, shape: ValueObject | undefined = doc): Promise<Path[]> {
  if (!env.permissionsApply(false)) return [];
  const hidden: Path[] = [];
  for (const [, field] of fieldsInOrder(table)) {
    if (field.permissions.select.kind === "Full" && !env.observe?.all) continue;
    for (const path of eachField(shape, field.name.parts, env.compat)) {
      if (!(await decide(env, { kind: "field", table, field, path }, "select", doc, { value: getPath(doc, path), this: doc }))) hidden.push(path);
    }
  }
  return hidden;
}

/** Strip fields whose `select` permission denies them, every hidden array element exactly (stricter than SurrealDB). */
export async function checkPermissionsFields(env: DocEnv, table: TableEntry, doc: ValueObject): Promise<ValueObject> {
  return withoutPaths(doc, await hiddenFields(env, table, doc));
}

/** Of the hidden paths of a record, those to strip again from a projection of the stripped record: object keys only
 * (the elements went exactly the first time; removing them again would take visible ones, as SurrealDB 2.6.0 does). */
export function keyPaths(hidden: readonly Path[]): Path[] {
  return hidden.filter((p) => p.every((x) => typeof x === "string"));
}

// Plan shortcuts: what no rule can decide against the actor, read from the definitions without a document. A shortcut
// only skips work whose outcome it knows; every record still goes through `decide`.

/** Does no table `select` rule hide a record from the actor (`applies`: do PERMISSIONS apply to it)? A missing table hides nothing it holds. */
export function selectNeverHides(applies: boolean, table: TableEntry | undefined): boolean {
  return !applies || table === undefined || table.def.permissions.select.kind === "Full";
}

/** Does the actor see every value under `path` on every record it may select: no field `select` rule but FULL reaches it? */
export function seesEveryValue(applies: boolean, table: TableEntry, path: readonly IdiomPart[]): boolean {
  if (!applies) return true;
  for (const f of table.fields.values()) if (f.permissions.select.kind !== "Full" && pathsMeet(f.name.parts, path)) return false;
  return true;
}

/** Can two field paths reach a common value (one a prefix of the other; only two different names part them)? */
function pathsMeet(a: readonly IdiomPart[], b: readonly IdiomPart[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind === "Field" && y.kind === "Field" && x.name !== y.name) return false;
  }
  return true;
}

/** Document variables: a clause naming one reads the record. */
const DOC_PARAMS: ReadonlySet<string> = new Set(["this", "self", "parent", "before", "after", "input", "event"]);
/** Functions that read the current record's fields by name. */
const DOC_CALLS: ReadonlySet<string> = new Set(["type::field", "type::fields"]);

/**
 * Does a rule's clause read the record only through the top-level fields `fields` (and `$value` when `value`)? Then its
 * outcome on any record is its outcome on a stand-in holding just those fields. A structural walk over the plain AST, so
 * no expression kind can be missed: any other bare field, a document variable, a path that starts on the record (a
 * graph step) or a nested statement's own bare field answers false (too often, never too rarely).
 */
export function readsOnlyFields(node: unknown, fields: ReadonlySet<string>, value: boolean): boolean {
  if (node === null || typeof node !== "object") return true;
  if (Array.isArray(node)) return node.every((n) => readsOnlyFields(n, fields, value));
  const n = node as { kind?: unknown; name?: unknown; parts?: unknown };
  if (n.kind === "Param" && typeof n.name === "string" && (DOC_PARAMS.has(n.name) || (n.name === "value" && !value))) return false;
  if (n.kind === "Call" && typeof n.name === "string" && DOC_CALLS.has(n.name.toLowerCase())) return false;
  if (n.kind === "Idiom" && Array.isArray(n.parts)) {
    const first = n.parts[0] as IdiomPart | undefined;
    if (first?.kind === "Field" ? !fields.has(first.name) : first?.kind !== "Start") return false;
  }
  return Object.values(node).every((v) => readsOnlyFields(v, fields, value));
}

