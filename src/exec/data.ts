// exec/: applying a data clause (SET, UNSET, MERGE, CONTENT, REPLACE, PATCH) to a document.

import type { Assignment, DataClause, IdiomExpr } from "../ast/nodes.js";
import { QueryError } from "../errors/index.js";
import { add, sub, valueEquals } from "../value/index.js";
import { isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { withCtx } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";
import { getPath, setPath } from "../doc/paths.js";
import { applyPatch } from "./patch.js";

export function placePath(place: IdiomExpr): string[] {
  return place.parts.map((p) => {
    if (p.kind === "Field") return p.name;
    if (p.kind === "Index" && p.index.kind === "Literal") return String(p.index.value);
    throw new QueryError("InvalidPlace", "Unsupported assignment target");
  });
}

function deepMerge(a: ValueObject, b: ValueObject): ValueObject {
  const out: ValueObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = isValueObject(cur) && isValueObject(v) ? deepMerge(cur, v) : v;
    if (v === undefined) delete out[k];
  }
  return out;
}

async function assign(doc: ValueObject, a: Assignment, ctx: Ctx): Promise<ValueObject> {
  const path = placePath(a.place);
  const value = await evaluate(a.value, withCtx(ctx, { doc }));
  const cur = getPath(doc, path);
  const opts = { compat: ctx.core.compat };
  switch (a.op) {
    case "=":
      return setPath(doc, path, value);
    case "+=":
      if (Array.isArray(cur)) return setPath(doc, path, [...cur, ...(Array.isArray(value) ? value : [value])]);
      return setPath(doc, path, cur === undefined ? value : add(cur, value, opts));
    case "-=":
      if (Array.isArray(cur)) {
        const drop = Array.isArray(value) ? value : [value];
        return setPath(doc, path, cur.filter((e) => !drop.some((d) => valueEquals(d, e, opts))));
      }
      return setPath(doc, path, cur === undefined ? value : sub(cur, value, opts));
    case "+?=": {
      const arr = Array.isArray(cur) ? cur : cur === undefined ? [] : [cur];
      const extra = (Array.isArray(value) ? value : [value]).filter((v) => !arr.some((e) => valueEquals(e, v, opts)));
      return setPath(doc, path, [...arr, ...extra]);
    }
  }
}

/** The document after `data`, and the `$input` value of the clause. */
export async function applyData(data: DataClause | undefined, doc: ValueObject, ctx: Ctx): Promise<{ doc: ValueObject; input: Value }> {
  if (!data) return { doc, input: undefined };
  const id = doc.id;
  switch (data.kind) {
    case "Set": {
      let out = doc;
      for (const a of data.items) out = await assign(out, a, ctx);
      return { doc: { ...out, id }, input: undefined };
    }
    case "Unset": {
      let out = doc;
      for (const f of data.fields) out = setPath(out, placePath(f), undefined);
      return { doc: out, input: undefined };
    }
    case "Merge": {
      const v = await evaluate(data.value, withCtx(ctx, { doc }));
      if (!isValueObject(v)) throw new QueryError("InvalidMerge", `Can not merge data using value: ${String(v)}`);
      return { doc: { ...deepMerge(doc, v), id }, input: v };
    }
    case "Content":
    case "Replace": {
      const v = await evaluate(data.value, withCtx(ctx, { doc }));
      if (!isValueObject(v)) throw new QueryError("InvalidContent", `Can not use ${String(v)} in a CONTENT clause`);
      return { doc: { ...v, id }, input: v };
    }
    case "Patch": {
      const v = await evaluate(data.value, withCtx(ctx, { doc }));
      return { doc: { ...applyPatch(doc, v, ctx.core.compat), id }, input: v };
    }
  }
}
