// exec/statements: SELECT — sources → visible records → WHERE → projection / GROUP → SPLIT → ORDER → START/LIMIT → FETCH → ONLY.

import { isAggregate } from "../../ast/aggregates.js";
import type { Expr, Field, IdiomExpr, SelectStatement } from "../../ast/nodes.js";
import { selectDocumentHidden } from "../../doc/select.js";
import { selectNeverHides } from "../../doc/permissions.js";
import { queryError } from "../../errors/index.js";
import { compareValues, isTruthy, valueKeyOf } from "../helpers.js";
import { Datetime, Decimal, isValueObject } from "../../value/types.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs, withCtx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { evaluateSources, rangeCandidates, recordCandidates, tableCandidates } from "../iterate.js";
import { fetchFields, omitFields, project, setProjected } from "../output.js";
import { docEnv } from "../records.js";
import { getPath, setPath } from "../../doc/paths.js";
import type { Path } from "../../doc/paths.js";
import { placePath } from "../data.js";
import { callFunction } from "../expressions/call.js";
import { permissionsApply } from "../rbac.js";
import { shuffleInPlace } from "../random.js";
import { splitRows } from "./select-split.js";


/** Documents the statement iterates over, permission-filtered (select). */
export async function visibleDocuments(s: Pick<SelectStatement, "what" | "cond" | "with">, ctx: Ctx): Promise<{ doc: Value; hidden: Path[] }[]> {
  const sources = await evaluateSources(s.what, ctx);
  const out: { doc: Value; hidden: Path[] }[] = [];
  for (const src of sources) {
    if (src.kind === "Value") {
      // 2.x iterates nothing for NONE and NULL (1.x selects them as values)
      if (ctx.core.compat === 1 || (src.value !== undefined && src.value !== null)) out.push({ doc: src.value, hidden: [] });
      continue;
    }
    const ns = needNs(ctx);
    const db = needDb(ctx);
    const env = docEnv(ctx);
    const tb = src.kind === "Record" ? src.rid.table : src.tb;
    const table = ctx.core.catalog.table(ns, db, tb);
    const recs =
      src.kind === "Table"
        ? await tableCandidates(ctx, table, tb, s.cond, true, s.with)
        : src.kind === "Range"
          ? await rangeCandidates(ctx, tb, src.range)
          : await recordCandidates(ctx, table, src.rid);
    for (const r of recs) {
      await ctx.budget.checkpoint();
      const seen = await selectDocumentHidden(env, table, r.doc);
      if (seen) out.push(seen);
    }
  }
  return out;
}

/** SurrealDB's own group sums, extremes and means pass over the values not of their kind (`math::sum` of 'x' and 3 is 3). */
const isNumber = (v: Value): boolean => typeof v === "bigint" || typeof v === "number" || v instanceof Decimal;
const SKIPS_OTHERS: Readonly<Record<string, (v: Value) => boolean>> = {
  "math::max": isNumber,
  "math::min": isNumber,
  "math::sum": isNumber,
  "math::mean": isNumber,
  "time::max": (v) => v instanceof Datetime,
  "time::min": (v) => v instanceof Datetime,
};

/** Evaluate a projection expression over a group: aggregates see every document, the rest the first one. */
async function groupValue(e: Expr, docs: Value[], ctx: Ctx): Promise<Value> {
  if (e.kind === "Call" && isAggregate(e.name)) {
    if (e.name.toLowerCase() === "count") {
      if (e.args.length === 0) return BigInt(docs.length);
      let n = 0n;
      for (const d of docs) if (isTruthy(await evaluate(e.args[0]!, withCtx(ctx, { doc: d })), { compat: ctx.core.compat })) n++;
      return n;
    }
    // the first argument's value in each document, as one array; further arguments (math::top's count) as written
    const values: Value[] = [];
    const keeps = SKIPS_OTHERS[e.name.toLowerCase()];
    for (const d of docs) {
      const v = e.args[0] ? await evaluate(e.args[0], withCtx(ctx, { doc: d })) : undefined;
      if (!keeps || keeps(v)) values.push(v);
    }
    // 1.x keeps a mean as a sum and a count: a group without numbers divides zero by zero
    if (ctx.core.compat === 1 && keeps === isNumber && e.name.toLowerCase() === "math::mean" && values.length === 0) throw queryError("TryDiv", "0", "0");
    const rest = await Promise.all(e.args.slice(1).map((a) => evaluate(a, withCtx(ctx, { doc: docs[0] }))));
    return callFunction(e, ctx, [values, ...rest]);
  }
  return evaluate(e, withCtx(ctx, { doc: docs[0] }));
}

/** What a GROUP BY path groups on: the field it aliases (`SELECT c AS a … GROUP BY a` groups on c), else the path. */
function groupExpr(s: SelectStatement, path: IdiomExpr): Expr {
  const key = JSON.stringify(placePath(path));
  const aliased = s.fields.items.find((f) => f.kind === "Single" && f.alias !== undefined && JSON.stringify(placePath(f.alias)) === key);
  return aliased?.kind === "Single" ? aliased.expr : path;
}

export async function groupRows(s: SelectStatement, docs: Value[], ctx: Ctx): Promise<Value[]> {
  const groups = new Map<string, Value[]>();
  const keys = new Map<string, Value[]>();
  const group = s.group!;
  for (const d of docs) {
    const values = group.all ? [] : await Promise.all(group.fields.map((f) => evaluate(groupExpr(s, f), withCtx(ctx, { doc: d }))));
    const key = valueKeyOf(values);
    keys.set(key, values);
    const list = groups.get(key) ?? [];
    list.push(d);
    groups.set(key, list);
  }
  const rows: Value[] = [];
  const ordered = [...groups.entries()].sort(([a], [b]) => compareValues(keys.get(a), keys.get(b), { compat: ctx.core.compat }));
  // 2.x answers a bare `SELECT count() FROM table GROUP ALL` with a zero count even when nothing matched
  const only = s.fields.items.length === 1 ? s.fields.items[0] : undefined;
  const onlyCount = only?.kind === "Single" && only.expr.kind === "Call" && only.expr.name === "count" && only.expr.args.length === 0;
  const selectable = (w: Expr) => selectNeverHides(permissionsApply(ctx, false), ctx.core.catalog.table(ctx.session.ns, ctx.session.db, (w as { name: string }).name));
  if (ordered.length === 0 && group.all && onlyCount && !s.cond && ctx.core.compat === 2 && s.what.every((w) => w.kind === "Table" && selectable(w))) {
    const f = only as Extract<Field, { kind: "Single" }>;
    return [s.fields.value ? 0n : setPath({}, f.alias ? placePath(f.alias) : ["count"], 0n)];
  }
  for (const [, list] of ordered) {
    if (s.fields.value) {
      const f = s.fields.items[0];
      rows.push(f && f.kind === "Single" ? await groupValue(f.expr, list, ctx) : list[0]);
      continue;
    }
    let row: ValueObject = {};
    for (const f of s.fields.items) {
      // `*` beside GROUP BY adds nothing (2.6.0; 1.5.4 refuses it as it parses)
      if (f.kind === "All") continue;
      const v = await groupValue(f.expr, list, ctx);
      const name = f.alias ? placePath(f.alias) : f.expr.kind === "Idiom" ? placePath(f.expr) : [f.expr.kind === "Call" ? f.expr.name : "expr"];
      row = setProjected(row, name, v);
    }
    rows.push(row);
  }
  return rows;
}

export async function runSelect(s: SelectStatement, ctx: Ctx): Promise<Value> {
  // 0. a namespace and database, whatever the sources (SurrealDB: `SELECT * FROM [1]` too)
  needDb(ctx);
  // 1. sources → visible documents
  // ONLY takes one record, or any source with LIMIT 1 (or 0); otherwise 1.x refuses a table or several sources, 2.x an
  // array (a table's rows are counted at the end) — SurrealDB 1.5.4 and 2.6.0 (only-limit.surql)
  if (s.only && !(s.what.length === 1 && s.what[0]!.kind !== "Table" && s.what[0]!.kind !== "Array") && !(s.limit && Number(await evaluate(s.limit, ctx)) <= 1)) {
    if (ctx.core.compat === 1 || s.what.some((w) => w.kind === "Array")) throw queryError("SingleOnlyOutput");
  }
  const docs = await visibleDocuments(s, ctx);
  // 2. WHERE
  const kept: { doc: Value; hidden: Path[] }[] = [];
  for (const d of docs) {
    await ctx.budget.checkpoint();
    if (!s.cond || isTruthy(await evaluate(s.cond, withCtx(ctx, { doc: d.doc })), { compat: ctx.core.compat })) kept.push(d);
  }
  // 3. projection or GROUP BY
  let rows: { out: Value; doc: Value }[];
  if (s.group) rows = (await groupRows(s, kept.map((k) => k.doc), ctx)).map((out) => ({ out, doc: out }));
  else {
    rows = [];
    for (const { doc, hidden } of kept) {
      await ctx.budget.checkpoint();
      let out = await project(s.fields, doc, ctx);
      if (s.omit) out = omitFields(out, s.omit);
      // field permissions strip the projected output too
      for (const path of hidden) if (isValueObject(out)) out = setPath(out, path, undefined);
      rows.push({ out, doc });
    }
  }
  // 3b. SPLIT (not with GROUP, which SurrealDB leaves unsplit); 2.x without ORDER BY skips START's rows before splitting
  const startEarly = s.split !== undefined && !s.group && !s.order && ctx.core.compat === 2;
  if (s.split && !s.group) rows = await splitRows(startEarly && s.start ? rows.slice(Number(await evaluate(s.start, ctx))) : rows, s.split, ctx);
  // 4. ORDER BY
  if (s.order?.kind === "Random") shuffleInPlace(rows);
  else if (s.order?.kind === "Fields") {
    const items = s.order.items;
    const key = (r: { out: Value; doc: Value }, f: (typeof items)[number]) => {
      const path = placePath(f.field);
      const v = getPath(r.out, path);
      return v === undefined ? getPath(r.doc, path) : v;
    };
    rows.sort((a, b) => {
      for (const f of items) {
        const c = compareValues(key(a, f), key(b, f), { compat: ctx.core.compat });
        if (c !== 0) return f.direction === "DESC" ? -c : c;
      }
      return 0;
    });
  }
  // 5. START, LIMIT
  let out = rows.map((r) => r.out);
  if (s.start && !startEarly) out = out.slice(Number(await evaluate(s.start, ctx)));
  if (s.limit) out = out.slice(0, Number(await evaluate(s.limit, ctx)));
  // 6. FETCH
  if (s.fetch) out = (await fetchFields(out, s.fetch, ctx)) as Value[];
  // 7. ONLY
  if (s.only) {
    if (out.length > 1) throw queryError("SingleOnlyOutput");
    return out[0];
  }
  return out;
}
