// doc/: field processing on write — READONLY, DEFAULT, VALUE, TYPE, ASSERT, field PERMISSIONS, SCHEMAFULL cleanup.

import type { DefineFieldStatement, Expr, TypeKind } from "../ast/nodes.js";
import { isStaticExpr } from "../ast/static.js";
import { DATA_FREE_CODES, fieldClauseFailed } from "../errors/catalogue.js";
import { CastError, QueryError, SurrealError, queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { CoerceError, coerce, compareValues, formatKind, formatRecordId, isTruthy, valueExact } from "../value/index.js";
import { isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";
import type { DocEnv, WriteOp } from "./env.js";
import { decide } from "./decide.js";
import { pathKey } from "./elements.js";
import { fieldsInOrder, getPath, putPath, walkField, withoutPaths } from "./paths.js";
import type { Path } from "./paths.js";
import { WriteSight } from "./sight.js";

/** One field at one path of the record being written: what its errors may name. */
interface FieldAt {
  readonly env: DocEnv;
  readonly sight: WriteSight;
  readonly op: WriteOp;
  readonly name: string;
  readonly path: Path;
}

/** The value and the record a field error may print: each only when the client may select it (A9), else NONE. */
async function named(at: FieldAt, val: Value, doc: ValueObject): Promise<{ value: string | undefined; rid: string | undefined }> {
  const written = putPath(doc, at.path, val, at.env.compat);
  const shown = await at.sight.field(at.path, [at.op.before, written]);
  const rid = shown || (await at.sight.record(written)) ? formatRecordId(at.op.rid, { compat: at.env.compat }) : undefined;
  return { value: shown ? at.env.printValue(val) : undefined, rid };
}

async function fieldError(at: FieldAt, val: Value, doc: ValueObject, tail: string): Promise<QueryError> {
  const { value, rid } = await named(at, val, doc);
  return queryError("FieldCheck", value, at.name, rid, tail);
}

/** A field clause's own failure: its text may carry anything the record holds, so it stands only if the client sees the whole record. */
async function clauseError(at: FieldAt, e: unknown, clause: "VALUE" | "DEFAULT" | "ASSERT", doc: ValueObject): Promise<unknown> {
  if (!(e instanceof SurrealError) || DATA_FREE_CODES.has(e.code) || (await at.sight.whole(doc))) return e;
  const rid = (await at.sight.record(doc)) ? formatRecordId(at.op.rid, { compat: at.env.compat }) : undefined;
  return queryError("FieldCheck", undefined, at.name, rid, fieldClauseFailed(clause));
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
  // OPTION IMPORT: the record as the export wrote it (no TYPE, VALUE, DEFAULT, ASSERT or READONLY), as SurrealDB imports
  if (env.importing) return after;
  const isNew = op.action === "create" || op.before === undefined;
  const permsApply = env.permissionsApply(true);
  const action = isNew ? "create" : "update";
  const input = changed(op.before, after, env.compat);
  let doc = after;
  // 2.x: the fields nested in an optional field found NONE are skipped
  const skipped: string[] = [];
  const sight = new WriteSight(env, table, op.before);
  for (const [name, fd] of fieldsInOrder(table)) {
    if (name === "id") continue;
    // 2.x: inside a skipped field, a stored value the update rule denies is kept (stricter than SurrealDB: E7)
    if (skipped.some((p) => name.startsWith(`${p}.`) || name.startsWith(`${p}[`))) {
      if (permsApply && !isNew) doc = await keepDenied(env, table, fd, op.before, doc);
      continue;
    }
    // 1.x removes the array elements left NONE (stricter than 1.5.4, which removes them one by one so that a later
    // element, denied or not, moves into a removed one's place and survives)
    const removed: Path[] = [];
    for (const [path, found] of walkField(doc, fd.name.parts, env.compat)) {
      // an element of an array merged by its rules is judged against the stored element whose slot it took
      const key = op.olds?.size ? pathKey(path) : undefined;
      const old = key !== undefined && op.olds!.has(key) ? op.olds!.get(key) : getPath(op.before, path);
      let val = found;
      // $value and $after: the value at this path; $before: the stored one; $input: what the write changed there
      const vars = (): Record<string, Value> => ({ value: val, before: old, after: val, input: getPath(input, path), this: doc });
      const at: FieldAt = { env, sight, op, name, path };
      const clause = async (kind: "VALUE" | "DEFAULT" | "ASSERT", expr: Expr): Promise<Value> => {
        try {
          return await env.evaluate(fd, expr, doc, vars());
        } catch (e) {
          throw await clauseError(at, e, kind, doc);
        }
      };
      // READONLY: a stored value may not change; one the client may not select stays, whatever was sent (an error
      // only when the value differs would confirm a guess: A9, stricter than SurrealDB)
      const kept = fd.readonly && !isNew;
      if (kept && !valueExact(val, old, { compat: env.compat })) {
        if (!(await sight.field(path, [op.before]))) val = old;
        else throw queryError("FieldReadonly", name, formatRecordId(op.rid, { compat: env.compat }));
      }
      // 2.x: a READONLY field of a stored record is left as it is (NONE too: a record stored without it stays so)
      if (kept && env.compat === 2) {
        doc = putPath(doc, path, val, env.compat);
        continue;
      }
      // VALUE runs on new records and on fields that are not READONLY (1.x: TYPE and ASSERT still judge a kept value)
      const value = kept ? undefined : fd.value;
      // DEFAULT: on new records (or always with DEFAULT ALWAYS) when no value was given
      if (fd.default && val === undefined && (isNew || fd.defaultAlways)) val = await clause("DEFAULT", fd.default);
      // TYPE before a VALUE too: the value given (or defaulted), unless a new record's NONE meets a static VALUE
      // (`time::now()`; a stored record without the field fails here, as SurrealDB's does)
      if (fd.type && value && !(val === undefined && isNew && isStaticExpr(value, env.compat))) val = await coerceField(at, fd.type, val, doc);
      // VALUE: computed on every write
      if (value) val = await clause("VALUE", value);
      // TYPE: coerce or fail with SurrealDB's text
      if (fd.type) val = await coerceField(at, fd.type, val, doc);
      // ASSERT: must be truthy with $value bound (2.x: NONE in a field whose type accepts it skips the ASSERT)
      const optionalNone = env.compat === 2 && val === undefined && fd.type !== undefined && acceptsNone(fd.type);
      if (fd.assert && !optionalNone && !isTruthy(await clause("ASSERT", fd.assert), { compat: env.compat })) {
        throw await fieldError(at, val, doc, `field must conform to: ${env.printExpr(fd.assert)}`);
      }
      // PERMISSIONS: a denied create/update keeps the old value
      if (permsApply && (fd.permissions[action].kind !== "Full" || env.observe?.all)) {
        if (!(await decide(env, { kind: "field", table, field: fd, path }, action, doc, vars()))) val = old;
      }
      if (env.compat === 2 && val === undefined && fd.type && acceptsNone(fd.type)) skipped.push(name);
      if (env.compat === 1 && val === undefined && typeof path[path.length - 1] === "number" && Array.isArray(getPath(doc, path.slice(0, -1)))) removed.push(path);
      doc = putPath(doc, path, val, env.compat);
    }
    doc = withoutPaths(doc, removed);
  }
  return doc;
}

/** The stored values at the paths a field covers whose update rule denies the client, put back into `doc`. */
async function keepDenied(env: DocEnv, table: TableEntry, fd: DefineFieldStatement, before: ValueObject | undefined, doc: ValueObject): Promise<ValueObject> {
  if (fd.permissions.update.kind === "Full" && !env.observe?.all) return doc;
  let out = doc;
  for (const [path, old] of walkField(before, fd.name.parts, env.compat)) {
    if (old === undefined || getPath(out, path) !== undefined) continue;
    const vars = { value: undefined, before: old, after: undefined, input: undefined, this: out };
    if (!(await decide(env, { kind: "field", table, field: fd, path }, "update", out, vars))) out = putPath(out, path, old, env.compat);
  }
  return out;
}

function acceptsNone(t: TypeKind): boolean {
  if (t.kind === "Option" || (t.kind === "Basic" && t.name === "any")) return true;
  return t.kind === "Either" && t.types.some(acceptsNone);
}

async function coerceField(at: FieldAt, type: TypeKind, val: Value, doc: ValueObject): Promise<Value> {
  const compat = at.env.compat;
  try {
    return coerce(val, type, { compat });
  } catch (e) {
    if (!(e instanceof CastError || (e instanceof Error && !(e instanceof QueryError)))) throw e;
    const { value, rid } = await named(at, val, doc);
    // SurrealDB names the failing item (`'x'` of `[1, 'x']`) and passes array-length errors through; of a value the
    // client may not select, neither (nor the length)
    if (e instanceof CoerceError && value !== undefined) throw new QueryError("FieldCheck", e.fieldMessage(at.name, rid!, { compat }));
    throw queryError("FieldCheck", value, at.name, rid, `expected a ${formatKind(type, { compat })}`);
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
