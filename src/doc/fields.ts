// doc/: field processing on write — READONLY, DEFAULT, VALUE, TYPE, ASSERT, field PERMISSIONS, SCHEMAFULL cleanup.

import type { DefineFieldStatement, TypeKind } from "../ast/nodes.js";
import { CastError, QueryError, queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { CoerceError, coerce, compareValues, formatKind, formatRecordId, isTruthy, valueExact } from "../value/index.js";
import { isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";
import type { DocEnv, WriteOp } from "./env.js";
import { permissionAllows } from "./permissions.js";
import { fieldsInOrder, getPath, putPath, walkField, withoutPaths } from "./paths.js";
import type { Path } from "./paths.js";

function fieldError(env: DocEnv, op: WriteOp, name: string, val: Value, tail: string): QueryError {
  return queryError("FieldCheck", env.printValue(val), name, formatRecordId(op.rid, { compat: env.compat }), tail);
}

/** What a write changed, as `$input` sees it per field: changed keys of objects (recursively), otherwise the new value. */
function changed(before: Value, after: Value, compat: 1 | 2): Value {
  return diff(before, after, compat).value;
}

/** `changed` and whether the two are equal (compareValues), in one walk: linear in the record's size. */
function diff(before: Value, after: Value, compat: 1 | 2): { value: Value; equal: boolean } {
  if (before === after) return { value: isValueObject(after) ? {} : after, equal: true };
  if (!isValueObject(before) || !isValueObject(after)) return { value: after, equal: compareValues(before, after, { compat }) === 0 };
  const out: ValueObject = {};
  let equal = Object.keys(before).length === Object.keys(after).length;
  for (const [k, v] of Object.entries(after)) {
    if (!(k in before)) {
      out[k] = v;
      equal = false;
      continue;
    }
    const sub = diff(before[k], v, compat);
    equal &&= sub.equal;
    // an object that changed, or a value `==` tells apart (1.x: a string equals the record id it spells)
    const objects = isValueObject(before[k]) && isValueObject(v);
    if (objects || compat === 2 ? !sub.equal : !valueExact(before[k], v, { compat })) out[k] = sub.value;
  }
  return { value: out, equal };
}

/** Run every field definition over the record being written, at every path its name covers; returns the processed record. */
export async function processTableFields(env: DocEnv, table: TableEntry, op: WriteOp, after: ValueObject): Promise<ValueObject> {
  const isNew = op.action === "create" || op.before === undefined;
  const permsApply = env.permissionsApply(true);
  const input = changed(op.before, after, env.compat);
  let doc = after;
  // 2.x: the fields nested in an optional field found NONE are skipped
  const skipped: string[] = [];
  for (const [name, fd] of fieldsInOrder(table)) {
    if (name === "id" || skipped.some((p) => name.startsWith(`${p}.`) || name.startsWith(`${p}[`))) continue;
    // 1.x removes the array elements left NONE (stricter than 1.5.4, which removes them one by one so that a later
    // element, denied or not, moves into a removed one's place and survives)
    const removed: Path[] = [];
    for (const [path, found] of walkField(doc, fd.name.parts, env.compat)) {
      const old = getPath(op.before, path);
      let val = found;
      // $value and $after: the value at this path; $before: the stored one; $input: what the write changed there
      const vars = (): Record<string, Value> => ({ value: val, before: old, after: val, input: getPath(input, path), this: doc });
      // READONLY: a stored value may not change
      if (fd.readonly && !isNew && !valueExact(val, old, { compat: env.compat })) {
        throw queryError("FieldReadonly", name, formatRecordId(op.rid, { compat: env.compat }));
      }
      // DEFAULT: on new records (or always with DEFAULT ALWAYS) when no value was given
      if (fd.default && val === undefined && (isNew || fd.defaultAlways)) val = await env.evaluate(fd, fd.default, doc, vars());
      // VALUE: computed on every write
      if (fd.value) val = await env.evaluate(fd, fd.value, doc, vars());
      // TYPE: coerce or fail with SurrealDB's text
      if (fd.type) val = coerceField(env, op, name, fd, val);
      // ASSERT: must be truthy with $value bound
      if (fd.assert && !isTruthy(await env.evaluate(fd, fd.assert, doc, vars()), { compat: env.compat })) {
        throw fieldError(env, op, name, val, `field must conform to: ${env.printExpr(fd.assert)}`);
      }
      // PERMISSIONS: a denied create/update keeps the old value
      if (permsApply) {
        const perm = isNew ? fd.permissions.create : fd.permissions.update;
        if (perm.kind !== "Full" && !(await permissionAllows(env, perm, doc, vars()))) val = old;
      }
      if (env.compat === 2 && val === undefined && fd.type && acceptsNone(fd.type)) skipped.push(name);
      if (env.compat === 1 && val === undefined && typeof path[path.length - 1] === "number" && Array.isArray(getPath(doc, path.slice(0, -1)))) removed.push(path);
      doc = putPath(doc, path, val, env.compat);
    }
    doc = withoutPaths(doc, removed);
  }
  return doc;
}

function acceptsNone(t: TypeKind): boolean {
  if (t.kind === "Option" || (t.kind === "Basic" && t.name === "any")) return true;
  return t.kind === "Either" && t.types.some(acceptsNone);
}

function coerceField(env: DocEnv, op: WriteOp, name: string, fd: DefineFieldStatement, val: Value): Value {
  if (!fd.type) return val;
  try {
    return coerce(val, fd.type, { compat: env.compat });
  } catch (e) {
    // SurrealDB names the failing item (`'x'` of `[1, 'x']`) and passes array-length errors through
    if (e instanceof CoerceError) throw new QueryError("FieldCheck", e.fieldMessage(name, formatRecordId(op.rid, { compat: env.compat }), { compat: env.compat }));
    if (e instanceof CastError || (e instanceof Error && !(e instanceof QueryError))) {
      throw fieldError(env, op, name, val, `expected a ${formatKind(fd.type, { compat: env.compat })}`);
    }
    throw e;
  }
}

/** The element type of an array-typed field (through option<…>), `null` for a plain `array`, NONE otherwise. */
function arrayInner(t: TypeKind | undefined): TypeKind | null | undefined {
  if (!t) return undefined;
  if (t.kind === "Option") return arrayInner(t.inner);
  if (t.kind === "Array" || t.kind === "Set") return t.inner ?? null;
  if (t.kind === "Either") for (const x of t.types) {
    const inner = arrayInner(x);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * The element definitions SurrealDB stores with a field typed as an array or set, recursively: `tags[*] TYPE string`
 * for `tags TYPE array<string>` (1.x also `tags[*] TYPE any` for a plain `array`); FLEXIBLE carries over, nothing else.
 */
export function elementDefinitions(fd: DefineFieldStatement, compat: 1 | 2): DefineFieldStatement[] {
  const inner = arrayInner(fd.type);
  const any = inner === null || (inner?.kind === "Basic" && inner.name === "any");
  if (inner === undefined || (any && compat === 2)) return [];
  const full = { kind: "Full" } as const;
  const element: DefineFieldStatement = {
    ...fd,
    name: { kind: "Idiom", parts: [...fd.name.parts, { kind: "All" }] },
    type: inner ?? { kind: "Basic", name: "any" },
    readonly: false,
    value: undefined,
    assert: undefined,
    default: undefined,
    defaultAlways: false,
    permissions: { select: full, create: full, update: full, delete: full },
    permissionsWritten: false,
    comment: undefined,
  };
  return [element, ...elementDefinitions(element, compat)];
}

/**
 * SCHEMAFULL tables keep only defined paths (and `id`; a definition of `a.b` or `a[*]` alone keeps no `a`): object contents need defined children or FLEXIBLE,
 * array elements need `field[*]` or an array type (2.x: with an element type).
 */
export function cleanupTableFields(table: TableEntry, doc: ValueObject, compat: 1 | 2 = 2): ValueObject {
  if (!table.def.schemafull) return doc;
  const fields = table.fields;
  const defined = (path: string) => fields.has(path);
  const clean = (v: Value, path: string): Value => {
    const fd = fields.get(path);
    if (fd?.flexible) return v;
    if (Array.isArray(v)) {
      const inner = arrayInner(fd?.type);
      const elements = defined(`${path}[*]`) || (inner !== undefined && (compat === 1 || inner !== null));
      return elements ? v.map((e) => clean(e, `${path}[*]`)) : [];
    }
    if (isValueObject(v)) {
      const out: ValueObject = {};
      for (const [k, x] of Object.entries(v)) if (defined(`${path}.${k}`)) out[k] = clean(x, `${path}.${k}`);
      return out;
    }
    return v;
  };
  const out: ValueObject = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === "id") out[k] = v;
    else if (defined(k)) out[k] = clean(v, k);
  }
  return out;
}
