// exec/: applying a data clause (SET, UNSET, MERGE, CONTENT, REPLACE, PATCH) to a document.
// The client's expressions see the record as the client may select it (`DocViews.seen`); the change lands on the stored record.

import type { Assignment, DataClause, Expr, IdiomExpr } from "../ast/nodes.js";
import type { DocViews } from "../doc/write.js";
import { queryError } from "../errors/index.js";
import { add, neg, ownField, setField, sub, valueEquals } from "../value/index.js";
import { Decimal, isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { withCtx } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";
import { clientArrays, pathKey } from "../doc/elements.js";
import { getPath, setPath, type Path } from "../doc/paths.js";
import { applyPatch } from "./patch.js";

export function placePath(place: IdiomExpr): string[] {
  return place.parts.map((p) => {
    if (p.kind === "Field") return p.name;
    if (p.kind === "Index" && p.index.kind === "Literal") return String(p.index.value);
    throw queryError("InvalidPlace");
  });
}

function deepMerge(a: ValueObject, b: ValueObject): ValueObject {
  const out: ValueObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = ownField(out, k);
    setField(out, k, isValueObject(cur) && isValueObject(v) ? deepMerge(cur, v) : v);
    if (v === undefined) delete out[k];
  }
  return out;
}

const isNumber = (v: Value): boolean => typeof v === "bigint" || typeof v === "number" || v instanceof Decimal;
const asList = (v: Value): Value[] => (Array.isArray(v) ? v : [v]);

/** `arr` without its first element equal to `v`. */
function withoutFirst(arr: Value[], v: Value, compat: 1 | 2): Value[] {
  const i = arr.findIndex((e) => valueEquals(e, v, { compat }));
  return i < 0 ? arr : [...arr.slice(0, i), ...arr.slice(i + 1)];
}

/** `cur op value` as SurrealDB's increment / decrement / extend do it: numbers and arrays change, other kinds stay as they are. */
function assignedValue(cur: Value, op: Assignment["op"], value: Value, compat: 1 | 2): Value {
  const opts = { compat };
  // an arithmetic failure (overflow) leaves the field unchanged, so no stored value reaches an error text
  const numeric = (f: () => Value): Value => {
    try {
      return f();
    } catch {
      return cur;
    }
  };
  switch (op) {
    case "=":
      return value;
    case "+=":
      if (Array.isArray(cur)) return [...cur, ...asList(value)];
      if (cur === undefined) return isNumber(value) || Array.isArray(value) ? value : [value];
      return isNumber(cur) && isNumber(value) ? numeric(() => add(cur, value, opts)) : cur;
    case "-=":
      if (Array.isArray(cur)) return asList(value).reduce<Value[]>((arr, d) => withoutFirst(arr, d, compat), cur);
      if (cur === undefined) return isNumber(value) ? numeric(() => neg(value, opts)) : cur;
      return isNumber(cur) && isNumber(value) ? numeric(() => sub(cur, value, opts)) : cur;
    case "+?=": {
      const arr = Array.isArray(cur) ? cur : cur === undefined ? [] : [cur];
      return [...arr, ...asList(value).filter((v) => !arr.some((e) => valueEquals(e, v, opts)))];
    }
  }
}

/**
 * One assignment, applied alike to the stored record and to the client's view of it: on the stored record, every array
 * on the way holds only the elements the client may see (an index counts those), and the write's arrays are merged
 * back with their hidden elements afterwards (doc/elements.ts; attack pass 8, F5).
 */
async function assign(views: DocViews, a: Assignment, ctx: Ctx): Promise<DocViews> {
  const path = placePath(a.place);
  const value = await evaluate(a.value, withCtx(ctx, { doc: views.seen }));
  const compat = ctx.core.compat;
  const framed = clientArrays(views.full, views.elements, path);
  return {
    ...views,
    full: setPath(framed.doc, path, assignedValue(getPath(framed.doc, path), a.op, value, compat)),
    seen: setPath(views.seen, path, assignedValue(getPath(views.seen, path), a.op, value, compat)),
    elements: framed.elements.filter((p) => !under(p, path)),
  };
}

/** Does `p` lie at or under `path` (an index and its digits are one step)? */
const under = (p: Path, path: readonly string[]): boolean => path.every((x, i) => i < p.length && String(p[i]) === x);

/** The value of a MERGE / CONTENT / PATCH expression: 2.x evaluates it on the client's view of the record, 1.x on no document. */
function clauseValue(expr: Expr, views: DocViews, ctx: Ctx): Promise<Value> {
  return evaluate(expr, withCtx(ctx, { doc: ctx.core.compat === 1 ? undefined : views.seen }));
}

/** The record after `data`. */
export async function applyData(data: DataClause | undefined, views: DocViews, ctx: Ctx): Promise<ValueObject> {
  const { full } = views;
  const id = full.id;
  if (!data) return full;
  switch (data.kind) {
    case "Set": {
      let out = views;
      for (const a of data.items) out = await assign(out, a, ctx);
      return { ...out.full, id };
    }
    case "Unset": {
      let out = full;
      let elements = views.elements;
      for (const f of data.fields) {
        const path = placePath(f);
        const framed = clientArrays(out, elements, path);
        out = setPath(framed.doc, path, undefined);
        elements = framed.elements.filter((p) => !under(p, path));
      }
      return out;
    }
    case "Merge": {
      const v = await clauseValue(data.value, views, ctx);
      if (!isValueObject(v)) throw queryError("InvalidMerge", String(v));
      return { ...deepMerge(full, v), id };
    }
    case "Content":
    case "Replace": {
      const v = await clauseValue(data.value, views, ctx);
      if (!isValueObject(v)) throw queryError("InvalidContent", String(v));
      return { ...v, id };
    }
    case "Patch": {
      const v = await clauseValue(data.value, views, ctx);
      // the patch runs on the client's view (its errors show only what it may select); hidden fields it left alone are kept
      let out = applyPatch(views.seen, v, ctx.core.compat);
      const elements = new Set(views.elements.map(pathKey));
      for (const path of views.hidden) {
        // an array the patch left as the client saw it gets its hidden elements back whole; one it changed is merged
        // with them by the element rules (doc/elements.ts)
        const parent = path.slice(0, -1);
        const untouched = typeof path[path.length - 1] === "number" && valueEquals(getPath(out, parent), getPath(views.seen, parent), { compat: ctx.core.compat });
        if (untouched) out = setPath(out, parent, getPath(full, parent));
        else if (!elements.has(pathKey(path)) && getPath(out, path) === undefined) out = setPath(out, path, getPath(full, path));
      }
      return { ...out, id };
    }
  }
}
