// exec/: result shaping — projections (SELECT fields, VALUE, OMIT), RETURN clauses of writes, FETCH, DIFF.

import type { CallExpr, Expr, Fields, IdiomExpr, Output } from "../ast/nodes.js";
import type { WriteResult } from "../doc/write.js";
import { checkPermissionsFields, checkPermissionsTable, hiddenFields } from "../doc/permissions.js";
import { ownField, setField } from "../value/object.js";
import { RecordId, isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { needDb, needNs, withCtx } from "./context.js";
import { placePath } from "./data.js";
import { evaluate } from "./expressions/evaluate.js";
import { callFunction } from "./expressions/call.js";
import { projectionName } from "./expressions/text.js";
import { fieldIdiom, isNamedFields, namedFieldPlace } from "./field-names.js";
import { docEnv, fetchRecord } from "./records.js";
import { getPath, setPath, withoutPaths } from "../doc/paths.js";
import { permissionsApply } from "./rbac.js";
import { diffValues } from "./patch.js";

/** Marker for "no output for this record". */
export const SKIP = Symbol("skip");

/** Set a projected field, keeping NONE values as present keys (SurrealDB shows them). */
export function setProjected(doc: ValueObject, path: readonly string[], v: Value): ValueObject {
  const [head, ...rest] = path;
  if (head === undefined) return doc;
  const out: ValueObject = { ...doc };
  const inner = ownField(out, head);
  setField(out, head, rest.length === 0 ? v : setProjected(isValueObject(inner) ? inner : {}, rest, v));
  return out;
}

/**
 * Where an unaliased projection lands: a field path at its place, a parameter under its name (`$this` → `this`);
 * a path from a parameter (`$this.a`, `$v[0]`) nowhere, as SurrealDB sets no column for it; otherwise its text.
 */
function projectionPath(e: Expr, compat: 1 | 2): readonly string[] | undefined {
  if (e.kind === "Param") return [e.name];
  if (e.kind !== "Idiom") return [projectionName(e, compat)];
  if (e.parts.every((p) => p.kind === "Field")) return placePath(e);
  return e.parts[0]?.kind === "Start" && e.parts[0].value.kind === "Param" ? undefined : [projectionName(e, compat)];
}

/** Apply a projection list to one document. */
export async function project(fields: Fields, doc: Value, ctx: Ctx): Promise<Value> {
  const dctx = withCtx(ctx, { doc });
  if (fields.value) {
    const f = fields.items[0];
    if (!f || f.kind === "All") return doc;
    return evaluate(f.expr, dctx);
  }
  let out: ValueObject = {};
  for (const f of fields.items) {
    if (f.kind === "All") {
      if (!isValueObject(doc)) return doc;
      out = { ...out, ...doc };
      continue;
    }
    if (isNamedFields(f.expr)) {
      out = await projectNamedFields(out, f.expr, f.alias, dctx);
      continue;
    }
    const v = await evaluate(f.expr, dctx);
    const path = f.alias ? placePath(f.alias) : projectionPath(f.expr, ctx.core.compat);
    if (path !== undefined) out = setProjected(out, path, v);
  }
  return out;
}

/** type::field(s) in a projection: each named field under its own path (type::field's alias wins; type::fields' is ignored). */
async function projectNamedFields(out: ValueObject, call: CallExpr, alias: IdiomExpr | undefined, ctx: Ctx): Promise<ValueObject> {
  const args = await Promise.all(call.args.map((a) => evaluate(a, ctx)));
  const v = await callFunction(call, ctx, args);
  if (call.name === "type::field") {
    if (alias) return setProjected(out, placePath(alias), v);
    const placed = namedFieldPlace(fieldIdiom(args[0] as string), v, ctx.core.compat);
    return setProjected(out, placed.path, placed.value);
  }
  (args[0] as string[]).forEach((name, i) => {
    const placed = namedFieldPlace(fieldIdiom(name), (v as Value[])[i], ctx.core.compat);
    out = setProjected(out, placed.path, placed.value);
  });
  return out;
}

export function omitFields(doc: Value, omit: readonly IdiomExpr[]): Value {
  if (!isValueObject(doc)) return doc;
  let out = doc;
  for (const o of omit) out = setPath(out, placePath(o), undefined);
  return out;
}

/** Replace record ids at the FETCH paths with the records they point to. */
export async function fetchFields(v: Value, fetch: readonly IdiomExpr[], ctx: Ctx): Promise<Value> {
  let out = v;
  for (const f of fetch) out = await fetchPath(out, placePath(f), ctx);
  return out;
}

async function fetchPath(v: Value, path: readonly string[], ctx: Ctx): Promise<Value> {
  if (Array.isArray(v)) return Promise.all(v.map((e) => fetchPath(e, path, ctx)));
  if (path.length === 0) return v instanceof RecordId ? ((await fetchRecord(v, ctx)) ?? null) : v;
  if (!isValueObject(v)) return v;
  const [head, ...rest] = path;
  const inner = getPath(v, [head!]);
  if (inner === undefined) return v;
  return setPath(v, [head!], await fetchPath(inner, rest, ctx));
}

/** A write's output per its RETURN clause; v2 also needs `select` permission to show the record. */
export async function writeOutput(output: Output | undefined, res: WriteResult, ctx: Ctx, fallback: "After" | "None"): Promise<Value | typeof SKIP> {
  const kind = output?.kind ?? fallback;
  if (kind === "None") return SKIP;
  if (kind === "Null") return null;
  const env = docEnv(ctx);
  const table = ctx.core.catalog.table(needNs(ctx), needDb(ctx), res.rid.table);
  // a record the client may not select is not returned; 1.5.4 returns it (SECURITY.md, attack finding F11), so 1.x
  // judges RETURN BEFORE by the select rule as it stood before the write (a deleted $auth record still returns itself)
  const visible = async (doc: ValueObject | undefined, selectable?: boolean): Promise<ValueObject | undefined> => {
    if (!doc || !table || !permissionsApply(ctx, false)) return doc;
    if (!(selectable ?? (await checkPermissionsTable(env, table, "select", doc)))) return undefined;
    return checkPermissionsFields(env, table, doc);
  };
  const after = await visible(res.after);
  let before = await visible(res.before, res.beforeSelectable);
  // RETURN BEFORE also meets the field permissions against the record after the write (NONE after a DELETE)
  if (before && table && permissionsApply(ctx, false)) {
    // both compats also strip what was hidden on the record before the write (1.5.4 shows those old values: stricter)
    const hidden = [...(await hiddenFields(env, table, res.before)), ...(await hiddenFields(env, table, res.after, res.before))];
    before = withoutPaths(res.before!, hidden);
  }
  if ((res.after && !after && kind !== "Before") || (res.before && !before && kind === "Before")) return SKIP;
  // 2.x: a deleted record the client may not select answers no row whatever the RETURN (attack pass 9, G4); 1.5.4
  // answers one for a missing id too, so there a row tells nothing
  if (ctx.core.compat === 2 && res.before && !res.after && !before) return SKIP;
  switch (kind) {
    case "After":
      return after;
    case "Before":
      return before;
    case "Diff":
      // SurrealDB (1.5.4 and 2.6.0) answers an empty patch when permissions apply
      return permissionsApply(ctx, false) ? [] : diffValues(before ?? {}, after ?? {}, "", ctx.core.compat);
    case "Fields": {
      if (output?.kind !== "Fields") return SKIP;
      const vars = ctx.vars.engine({ before, after });
      return project(output.fields, after, withCtx(ctx, { vars }));
    }
  }
  return SKIP;
}
