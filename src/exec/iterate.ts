// exec/: the FROM / target list of a statement turned into records — table scans, record ids, ranges, plain values —
// with permission pushdown: an equality on `id` or an indexed field answers with a lookup instead of a scan.

import type { DefineIndexStatement, Expr, SelectStatement } from "../ast/nodes.js";
import { queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { compareRecordKeys } from "../store/keys.js";
import { scanAll } from "../store/records.js";
import type { StoredRecord } from "../store/records.js";
import { compareValues, typeRank } from "../value/index.js";
import { RecordId, RecordIdRange, Table, isValueObject } from "../value/types.js";
import type { RecordIdKey, Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { needDb, needNs, ownerCtx, withCtx } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";
import { permissionsApply } from "./rbac.js";
import { seesEveryValue } from "../doc/permissions.js";
import { missLikeHit } from "./records.js";

export type Source =
  | { readonly kind: "Table"; readonly tb: string }
  | { readonly kind: "Record"; readonly rid: RecordId }
  | { readonly kind: "Range"; readonly tb: string; readonly range: RecordIdRange }
  | { readonly kind: "Value"; readonly value: Value };

function sourcesOf(v: Value, out: Source[], nested: boolean): void {
  if (v instanceof Table) out.push({ kind: "Table", tb: v.name });
  else if (v instanceof RecordId) out.push(v.id instanceof RecordIdRange ? { kind: "Range", tb: v.table, range: v.id } : { kind: "Record", rid: v });
  else if (Array.isArray(v) && !nested) for (const e of v) sourcesOf(e, out, true);
  else out.push({ kind: "Value", value: v });
}

/** Evaluate the target expressions (a bare name is a table). */
export async function evaluateSources(what: readonly Expr[], ctx: Ctx): Promise<Source[]> {
  const out: Source[] = [];
  for (const w of what) {
    if (w.kind === "Table") out.push({ kind: "Table", tb: w.name });
    else sourcesOf(await evaluate(w, ctx), out, false);
  }
  return out;
}

/** Can `e` be evaluated without the current document? */
export function isDocIndependent(e: Expr): boolean {
  switch (e.kind) {
    case "Literal":
    case "Constant":
      return true;
    case "Param":
      return !["this", "self", "value", "before", "after", "parent", "input"].includes(e.name);
    case "RecordId":
      return e.key.kind === "Number" || e.key.kind === "String" || e.key.kind === "Uuid";
    case "Idiom": {
      const [first, ...rest] = e.parts;
      return first?.kind === "Start" && isDocIndependent(first.value) && rest.every((p) => p.kind === "Field" || p.kind === "All");
    }
    case "Call":
      return !e.name.startsWith("rand") && e.args.every(isDocIndependent);
    case "Array":
      return e.items.every(isDocIndependent);
    case "Unary":
      return isDocIndependent(e.operand);
    case "Subquery":
      return e.inner.kind === "Expr" && isDocIndependent(e.inner.expr);
    default:
      return false;
  }
}

/** The field path an idiom names on the document (`id`, `email`, `a.b`), if it is a plain path. */
function plainField(e: Expr): string | undefined {
  if (e.kind !== "Idiom" || e.parts.length === 0) return undefined;
  if (!e.parts.every((p) => p.kind === "Field")) return undefined;
  return e.parts.map((p) => (p.kind === "Field" ? p.name : "")).join(".");
}

/** Equalities `field = expr` that must hold for `cond` to be truthy (conjuncts of an AND chain, walked without recursion). */
export function requiredEqualities(cond: Expr | undefined): { field: string; value: Expr }[] {
  const out: { field: string; value: Expr }[] = [];
  const todo: Expr[] = cond ? [cond] : [];
  for (let c = todo.pop(); c !== undefined; c = todo.pop()) {
    if (c.kind === "Binary" && c.op === "&&") todo.push(c.right, c.left);
    else if (c.kind === "Subquery" && c.inner.kind === "Expr") todo.push(c.inner.expr);
    else if (c.kind === "Binary" && (c.op === "=" || c.op === "==")) {
      const lf = plainField(c.left);
      const rf = plainField(c.right);
      if (lf && isDocIndependent(c.right)) out.push({ field: lf, value: c.right });
      else if (rf && isDocIndependent(c.left)) out.push({ field: rf, value: c.left });
    }
  }
  return out;
}

type Bound = "<" | "<=" | ">" | ">=";
const RANGE_OPS: readonly string[] = ["<", "<=", ">", ">="];

/** Number kinds sort apart in index keys: every int, then every float, then every decimal. */
const numberKind = (v: Value): number => (typeof v === "bigint" ? 0 : typeof v === "number" ? 1 : 2);

/** SurrealDB's index key order: by type, numbers by kind then value, arrays element-wise with a prefix after its extensions. */
function compareIndexKeys(a: Value, b: Value, compat: 1 | 2): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 3 && numberKind(a) !== numberKind(b)) return numberKind(a) < numberKind(b) ? -1 : 1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareIndexKeys(a[i], b[i], compat);
      if (c !== 0) return c;
    }
    return a.length === b.length ? 0 : a.length > b.length ? -1 : 1;
  }
  return compareValues(a, b, { compat });
}

const holds = (c: number, op: Bound | "="): boolean => (op === "=" ? c === 0 : op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : c >= 0);

/** Which indexes a condition may use: a client's only those over values it sees; WITH INDEX names some, WITH NOINDEX none. */
interface IndexAccess {
  readonly client: boolean;
  readonly with: SelectStatement["with"];
}

/**
 * The table's index on exactly `field`, as [name, definition], when `access` lets a condition use it. A client's
 * condition never uses an index over a value a field rule may hide: the index holds the stored value, the WHERE
 * sees NONE, and the index would pick, order and window rows by the hidden value (attack pass 3, A2).
 */
function singleFieldIndex(ctx: Ctx, table: TableEntry | undefined, field: string, access: IndexAccess): [string, DefineIndexStatement] | undefined {
  if (!table || access.with?.kind === "NoIndex") return undefined;
  // 2.x plans only with the indexes WITH INDEX names; 1.5.4 still takes another one when none of them applies
  const names = access.with?.kind === "Index" && ctx.core.compat === 2 ? access.with.names : undefined;
  const ix = [...table.indexes.entries()].find(([n, d]) => d.fields.length === 1 && plainField(d.fields[0]!) === field && (!names || names.includes(n)));
  const path = ix?.[1].fields[0];
  return path?.kind === "Idiom" && (!access.client || seesEveryValue(permissionsApply(ctx, false), table!, path.parts)) ? ix : undefined;
}

const FAILED = Symbol("failed");

/** A pushdown operand's value, or FAILED when it raises (SurrealDB then plans a scan, as we do). */
async function evaluateOperand(e: Expr, ctx: Ctx): Promise<Value | typeof FAILED> {
  try {
    return await evaluate(e, ctx);
  } catch {
    return FAILED;
  }
}

/** The key of a stand-in record (R6): never looked at, only passed to permission clauses as the record's id. */
const STAND_IN_KEY = "\u0000stand-in";

/** A stand-in for a record holding `v` at the dotted `field`. */
function holding(tb: string, field: string, v: Value): ValueObject & { id: RecordId } {
  const keys = field.split(".");
  let inner = v;
  for (let i = keys.length - 1; i > 0; i--) inner = { [keys[i]!]: inner };
  return { id: new RecordId(tb, STAND_IN_KEY), [keys[0]!]: inner };
}

/**
 * SurrealDB's query planner for a WHERE `field op value` on a single-field index: equality (and 1.x CONTAINS)
 * looks the value up; a comparison walks the index range in key order — a record once per entry in range,
 * duplicates and all; 2.x keeps a numeric bound within numbers. A plain index holds NONE and NULL as the lowest
 * keys (NONE first), a UNIQUE one does not; a 1.x NONE / NULL value, or any other condition, plans nothing
 * (`undefined`: scan). WHERE is still checked after.
 */
async function indexPlan(ctx: Ctx, table: TableEntry | undefined, t: { ns: string; db: string; tb: string }, cond: Expr | undefined, access: IndexAccess): Promise<StoredRecord[] | undefined> {
  if (!table || !cond) return undefined;
  if (cond.kind === "Subquery" && cond.inner.kind === "Expr") return indexPlan(ctx, table, t, cond.inner.expr, access);
  if (cond.kind !== "Binary") return undefined;
  const compat = ctx.core.compat;
  const op = cond.op;
  if (!(op === "=" || RANGE_OPS.includes(op) || (compat === 1 && op === "CONTAINS"))) return undefined;
  const field = plainField(cond.left);
  if (!field || !isDocIndependent(cond.right)) return undefined;
  const ix = singleFieldIndex(ctx, table, field, access);
  if (!ix) return undefined;
  // the operand is the client's: its rights; an error leaves the answer to the scan (which meets it on a row, if any)
  const v = await evaluateOperand(cond.right, withCtx(ctx, { doc: undefined }));
  if (v === FAILED) return undefined;
  const nullish = v === undefined || v === null;
  if (nullish && compat === 1) return undefined;
  const fetch = async (ids: readonly RecordId[]): Promise<StoredRecord[]> => {
    const out: StoredRecord[] = [];
    for (const rid of [...ids].sort((a, b) => compareRecordKeys(a.id, b.id))) {
      const doc = await ctx.core.records.get(ctx.txn, t, rid);
      if (doc) out.push({ id: rid, doc });
    }
    return out;
  };
  const numeric = compat === 2 && typeRank(v) === 3;
  const unique = ix[1].unique;
  // an equality looks its value up (2.x: a number under every number kind: 1, 1.0 and 1dec)
  if ((op === "=" || op === "CONTAINS") && !numeric) {
    if (nullish && unique) return [];
    const hits = await fetch(await ctx.core.indexes.lookup(ctx.txn, t, ix[0], [v]));
    if (hits.length === 0) await missLikeHit(ctx, table, holding(t.tb, field, v), { fetchFrom: t });
    return hits;
  }
  const bound: Bound | "=" = op === "=" ? "=" : (op as Bound);
  const inRange = (e: Value): boolean => {
    if (unique && (e === undefined || e === null)) return false;
    if (nullish && unique) return bound === ">" || bound === ">=";
    if (numeric) return typeRank(e) === 3 && holds(compareValues(e, v, { compat }), bound);
    return holds(compareIndexKeys(e, v, compat), bound);
  };
  const entries = (await ctx.core.indexes.entries(ctx.txn, t, ix[0], 1)).filter((e) => inRange(e.values[0]));
  entries.sort((a, b) => compareIndexKeys(a.values[0], b.values[0], compat));
  const out: StoredRecord[] = [];
  for (const e of entries) out.push(...(await fetch(e.ids)));
  return out;
}

/**
 * Candidate records of a table for a select: a lookup when an equality on `id` or on a single-field index
 * must hold (from the select permission or the WHERE clause), otherwise a full scan. Every candidate still
 * goes through the full permission and WHERE checks, so results equal the scan's over the client's view.
 */
export async function tableCandidates(
  ctx: Ctx,
  table: TableEntry | undefined,
  tb: string,
  cond: Expr | undefined,
  usePermission = true,
  withIndex: SelectStatement["with"] = undefined,
): Promise<StoredRecord[]> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const t = { ns, db, tb };
  const client: IndexAccess = { client: true, with: withIndex };
  // SurrealDB plans a WHERE on an indexed field from the index (its order and duplicates are part of the answer)
  const planned = await indexPlan(ctx, table, t, cond, client);
  if (planned) return planned;
  // hints: equalities the select permission (a schema clause: owner rights, the stored record) or the WHERE clause
  // (client rights, the record as the client sees it) requires
  const perm = table?.def.permissions.select;
  const hints = [
    ...(usePermission && perm?.kind === "Where" && permissionsApply(ctx, false)
      ? requiredEqualities(perm.cond).map((h) => ({ ...h, ctx: ownerCtx(ctx, perm, { doc: undefined }), access: { client: false, with: undefined } }))
      : []),
    ...requiredEqualities(cond).map((h) => ({ ...h, ctx: withCtx(ctx, { doc: undefined }), access: client })),
  ];
  for (const h of ctx.core.pushdown ? hints : []) {
    const ix = h.field === "id" ? undefined : singleFieldIndex(ctx, table, h.field, h.access);
    if (h.field !== "id" && !ix) continue;
    if (!ix && h.access.client && table && !seesEveryValue(permissionsApply(ctx, false), table, [{ kind: "Field", name: "id" }])) continue;
    const v = await evaluateOperand(h.value, h.ctx);
    if (v === FAILED) continue;
    if (!ix) {
      // 1.x: `id = 't:1'` also matches (a string equals the record id with the same text)
      if (!(v instanceof RecordId)) {
        if (ctx.core.compat === 1 && typeof v === "string") continue;
        return [];
      }
      if (v.table !== tb || v.id instanceof RecordIdRange) continue;
      return recordCandidates(ctx, table, v);
    }
    const hits = await ctx.core.indexes.lookup(ctx.txn, t, ix[0], [v]);
    const recs: StoredRecord[] = [];
    for (const rid of hits) {
      const doc = await ctx.core.records.get(ctx.txn, t, rid);
      if (doc) recs.push({ id: rid, doc });
    }
    if (recs.length === 0) await missLikeHit(ctx, table, holding(tb, h.field, v), { fetchFrom: t });
    return recs.sort((a, b) => compareRecordKeys(a.id.id, b.id.id));
  }
  return scanAll(ctx.core.records, ctx.txn, t);
}

/** The record of an id, if it exists (a miss costs what a hidden hit does). */
export async function recordCandidates(ctx: Ctx, table: TableEntry | undefined, rid: RecordId): Promise<StoredRecord[]> {
  const t = { ns: needNs(ctx), db: needDb(ctx), tb: rid.table };
  const doc = await ctx.core.records.get(ctx.txn, t, rid);
  if (doc) return [{ id: rid, doc }];
  await missLikeHit(ctx, table, { id: rid });
  return [];
}

/** Records of a key range, in key order. */
export function rangeCandidates(ctx: Ctx, tb: string, range: RecordIdRange): Promise<StoredRecord[]> {
  return scanAll(ctx.core.records, ctx.txn, { ns: needNs(ctx), db: needDb(ctx), tb }, range);
}

/** Sort helper shared by ORDER BY. */
export function orderValues(a: Value, b: Value, compat: 1 | 2 = 2): number {
  return compareValues(a, b, { compat });
}

export function assertWritable(s: Source): void {
  if (s.kind === "Value" && !isValueObject(s.value)) {
    throw queryError("InvalidStatementTarget", String(s.value));
  }
}
