// exec/expressions: idiom paths — fields, indexes, `[*]`, `[WHERE]`, methods, record-link traversal, graph edges.

import type { IdiomExpr, IdiomPart } from "../../ast/nodes.js";
import { encodeRecordIdKey } from "../../store/kv/keys.js";
import { checked, isTruthy, ownField, typeName, valueEquals } from "../../value/index.js";
import { RecordId, isValueObject } from "../../value/types.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { withCtx } from "../context.js";
import { fetchRecord, fetchRecordForCondition } from "../records.js";
import { callFunction, invokeClosure } from "./call.js";
import { isBuiltin } from "../functions/index.js";
import { ClosureValue } from "../signals.js";
import { queryError } from "../../errors/index.js";
import { evaluate } from "./evaluate.js";
import { nearSideHidden } from "./graph-near.js";
import { needDb, needNs } from "../context.js";

export async function evaluateIdiom(idiom: IdiomExpr, ctx: Ctx): Promise<Value> {
  const [first] = idiom.parts;
  const v = first?.kind === "Start" ? await walk(await evaluate(first.value, ctx), idiom.parts, 1, ctx) : await walk(ctx.doc, idiom.parts, 0, ctx);
  // a path over an array builds a new one (`$ids.doc` repeats a record per id): it is held to the value limits
  return Array.isArray(v) ? checked(v) : v;
}

/** The namespace of a value's methods (`"abc".len()` → `string::len`). */
function methodNamespace(v: Value): string {
  if (typeof v === "string") return "string";
  if (Array.isArray(v)) return "array";
  if (v instanceof RecordId) return "record";
  if (isValueObject(v)) return "object";
  if (typeof v === "bigint" || typeof v === "number") return "math";
  const name = (v as object | undefined)?.constructor?.name?.toLowerCase();
  return name ?? "value";
}

/** A value's type as 2.x names it when a call on it fails (a record id is "incorrect type" there). */
function methodTypeName(v: Value): string {
  if (v instanceof ClosureValue) return "function";
  if (v instanceof RecordId) return "incorrect type";
  return typeName(v);
}

/** Follow `parts[i…]` from `v`. */
export async function walk(v: Value, parts: readonly IdiomPart[], i: number, ctx: Ctx): Promise<Value> {
  if (i >= parts.length) return v;
  const part = parts[i]!;
  switch (part.kind) {
    case "Start":
      return walk(await evaluate(part.value, ctx), parts, i + 1, ctx);
    case "Field": {
      if (Array.isArray(v)) return Promise.all(v.map((e) => walk(e, parts, i, ctx)));
      if (v instanceof RecordId) {
        if (part.name === "id" && i + 1 === parts.length) {
          const rec = await fetchRecord(v, ctx);
          return rec === undefined ? undefined : v;
        }
        return walk(await fetchRecord(v, ctx), parts, i, ctx);
      }
      if (isValueObject(v)) return walk(ownField(v, part.name), parts, i + 1, ctx);
      return undefined;
    }
    case "Index": {
      if (v instanceof RecordId) return walk(await fetchRecord(v, ctx), parts, i, ctx);
      const idx = await evaluate(part.index, withCtx(ctx, {}));
      if (Array.isArray(v)) {
        const n = typeof idx === "bigint" ? Number(idx) : typeof idx === "number" ? Math.trunc(idx) : NaN;
        return walk(Number.isNaN(n) ? undefined : v[n], parts, i + 1, ctx);
      }
      if (isValueObject(v) && typeof idx === "string") return walk(ownField(v, idx), parts, i + 1, ctx);
      return undefined;
    }
    case "All": {
      if (v instanceof RecordId) return walk(await fetchRecord(v, ctx), parts, i + 1, ctx);
      if (Array.isArray(v)) return Promise.all(v.map((e) => walk(e, parts, i + 1, ctx)));
      return walk(v, parts, i + 1, ctx);
    }
    case "Last":
      return Array.isArray(v) ? walk(v[v.length - 1], parts, i + 1, ctx) : undefined;
    case "Where": {
      if (!Array.isArray(v)) return undefined;
      const kept: Value[] = [];
      for (const e of v) {
        const doc = e instanceof RecordId ? await fetchRecord(e, ctx) : e;
        if (isTruthy(await evaluate(part.cond, withCtx(ctx, { doc })), { compat: ctx.core.compat })) kept.push(e);
      }
      return walk(kept, parts, i + 1, ctx);
    }
    case "Method": {
      const argValues = [];
      for (const a of part.args) argValues.push(await evaluate(a, ctx));
      // an object's closure field is called as a method (2.x: `{ f: |$x| $x }.f(1)`)
      const own = isValueObject(v) ? ownField(v, part.name) : undefined;
      if (own instanceof ClosureValue) return walk(await invokeClosure(own, argValues, ctx), parts, i + 1, ctx);
      const name = part.name.includes("::") ? part.name : `${methodNamespace(v)}::${part.name}`;
      if (ctx.core.compat === 2 && !part.name.includes("::") && !isBuiltin(name, 2)) {
        throw queryError("FunctionRun", part.name, `no such method found for the ${methodTypeName(v)} type`);
      }
      const result = await callFunction({ kind: "Call", name, args: [] }, ctx, [v, ...argValues]);
      return walk(result, parts, i + 1, ctx);
    }
    case "Invoke": {
      const argValues = [];
      for (const a of part.args) argValues.push(await evaluate(a, ctx));
      if (!(v instanceof ClosureValue)) throw queryError("FunctionRun", "ANONYMOUS", `'${methodTypeName(v)}' is not a function`);
      return walk(await invokeClosure(v, argValues, ctx), parts, i + 1, ctx);
    }
    case "Flatten":
      return walk(Array.isArray(v) ? v.flatMap((e) => (Array.isArray(e) ? e : [e])) : v, parts, i + 1, ctx);
    case "Optional":
      return v === undefined || v === null ? undefined : walk(v, parts, i + 1, ctx);
    case "Graph":
      return walk(await traverseGraph(v, part, ctx, i > 0 && parts[i - 1]?.kind === "Graph" && isEdgeStep(parts, i - 1)), parts, i + 1, ctx);
  }
}

/** Graph parts alternate node → edge → node: the first graph part in a run selects edges. */
function isEdgeStep(parts: readonly IdiomPart[], i: number): boolean {
  let run = 0;
  for (let j = i; j >= 0 && parts[j]?.kind === "Graph"; j--) run++;
  return run % 2 === 1;
}

/** `->edge` from nodes (edges whose `in`/`out` is the node) or `->node` from edges (their `out`/`in`). */
async function traverseGraph(v: Value, part: Extract<IdiomPart, { kind: "Graph" }>, ctx: Ctx, fromEdges: boolean): Promise<Value> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  // a document stands for its own record id
  const sources = (Array.isArray(v) ? v.flat() : [v]).map((s) => (isValueObject(s) && s.id instanceof RecordId ? s.id : s));
  const out: Value[] = [];
  for (const src of sources) {
    if (!(src instanceof RecordId)) continue;
    if (fromEdges) {
      const edge = await fetchRecord(src, ctx);
      if (!isValueObject(edge)) continue;
      const ends = part.dir === "->" ? [edge.out] : part.dir === "<-" ? [edge.in] : [edge.in, edge.out];
      for (const end of ends) if (end instanceof RecordId && (part.what.length === 0 || part.what.includes(end.table)) && (await graphStepKeeps(end, part, ctx))) out.push(end);
      continue;
    }
    const tables = part.what.length > 0 ? part.what : [...(ctx.core.catalog.db(ns, db)?.tables.keys() ?? [])];
    const node = { ns, db, tb: src.table };
    for (const tb of tables) {
      // the node's edge keys name the candidates; each is read to check it still names the node (unless the rules
      // hide every edge's near side from the client whatever the edge: then none is scanned, F7)
      const outs = part.dir === "<-" || (await nearSideHidden(ctx, tb, "in", src)) ? [] : await ctx.core.records.edges(ctx.txn, node, src, "out", tb);
      const ins = part.dir === "->" || (await nearSideHidden(ctx, tb, "out", src)) ? [] : await ctx.core.records.edges(ctx.txn, node, src, "in", tb);
      const ids = [...outs, ...ins.filter((i) => !outs.some((o) => valueEquals(o, i, { compat: ctx.core.compat })))];
      for (const id of ins.length > 0 && outs.length > 0 ? ids.sort((a, b) => Buffer.compare(encodeRecordIdKey(a.id), encodeRecordIdKey(b.id))) : ids) {
        // sources × edges reads: each is a checkpoint (the query's time limit, and yielding)
        await ctx.budget.checkpoint();
        // the edge as the client may select it: a hidden `in` / `out` never names the node it starts from (stricter
        // than SurrealDB 2.6.0, which answers it from the graph keys: attack pass 7, E4)
        const doc = await fetchRecordForCondition(id, ctx);
        if (doc === undefined) continue;
        const matchOut = (part.dir === "->" || part.dir === "<->") && valueEquals(doc.in, src, { compat: ctx.core.compat });
        const matchIn = (part.dir === "<-" || part.dir === "<->") && valueEquals(doc.out, src, { compat: ctx.core.compat });
        if ((matchOut || matchIn) && (await conditionKeeps(doc, part, ctx))) out.push(id);
      }
    }
  }
  return out;
}

/** A record a graph step reaches: missing or denied records are skipped before the client's condition sees them. */
async function graphStepKeeps(rid: RecordId, part: Extract<IdiomPart, { kind: "Graph" }>, ctx: Ctx): Promise<boolean> {
  // 1. the select permission (NONE when missing or denied): skipped silently
  const doc = await fetchRecordForCondition(rid, ctx);
  if (doc === undefined) return false;
  return conditionKeeps(doc, part, ctx);
}

/** 2. the step's condition, on the document as SELECT's WHERE sees it. */
async function conditionKeeps(doc: ValueObject, part: Extract<IdiomPart, { kind: "Graph" }>, ctx: Ctx): Promise<boolean> {
  return !part.cond || isTruthy(await evaluate(part.cond, withCtx(ctx, { doc })), { compat: ctx.core.compat });
}
