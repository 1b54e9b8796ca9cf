// exec/expressions: function calls — builtins through callBuiltin, custom `fn::` functions from DEFINE FUNCTION.

import type { CallExpr, ClosureExpr } from "../../ast/nodes.js";
import { queryError } from "../../errors/index.js";
import { CoerceError, checked, coerce, formatKind, toSql } from "../../value/index.js";
import type { CompatOpts } from "../../value/index.js";
import type { RecordId, Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { Vars, bodyCtx, closureCtx, needDb, needNs } from "../context.js";
import { callBuiltin } from "../functions/index.js";
import type { FunctionContext } from "../functions/index.js";
import { fetchRecord } from "../records.js";
import { fieldValue } from "../field-names.js";
import { definitionPermits } from "../records.js";
import { BreakSignal, ClosureValue, ContinueSignal, ReturnSignal, controlFlowError } from "../signals.js";
import { runBlock } from "../statements/index.js";
import { evaluate } from "./evaluate.js";

/** What builtins see of the engine. */
export function functionContext(ctx: Ctx): FunctionContext {
  return {
    session: ctx.session,
    compat: ctx.core.compat,
    clock: ctx.core.clock,
    budget: ctx.budget,
    clientWritten: !ctx.rights.inSchemaBody,
    fetchRecord: (rid: RecordId) => fetchRecord(rid, ctx),
    invoke: (closure, args) => invokeClosure(closure as ClosureValue, args, ctx),
    isClosure: (v) => v instanceof ClosureValue,
    fieldValue: (text) => fieldValue(text, ctx),
  };
}

/**
 * Run a closure in the invoker's session and transaction, on its arguments alone (no variable of the query or of an
 * enclosing closure or function, as SurrealDB runs it) and with rights no greater than the invoker's.
 */
export async function invokeClosure(closure: ClosureValue, args: Value[], invoker: Ctx): Promise<Value> {
  await invoker.budget.checkpoint();
  const opts = { compat: invoker.core.compat };
  const bind: Record<string, Value> = {};
  const { expr } = closure;
  expr.args.forEach((a, i) => (bind[a.name] = closureArg(a, args, i, opts)));
  const result = await evaluate(expr.body, closureCtx(invoker, closure.madeWith, Vars.root(invoker.core.compat, bind)));
  if (expr.returns === undefined) return checked(result);
  const returns = expr.returns;
  return checked(orElse(() => coerce(result, returns, opts), (e) => queryError("ClosureReturn", formatKind(returns, opts), toSql(e.found, opts))));
}

/** A closure's argument: each parameter wants a value (extra arguments are dropped), coerced to its type if it has one. */
function closureArg(a: ClosureExpr["args"][number], args: Value[], i: number, opts: CompatOpts): Value {
  const type = a.type;
  if (i >= args.length) {
    if (type?.kind === "Option") return undefined;
    throw queryError("InvalidArguments", "ANONYMOUS", `Expected a value for $${a.name}`);
  }
  if (type === undefined) return args[i];
  const detail = `Expected a value of type '${formatKind(type, opts)}' for argument $${a.name}`;
  return orElse(() => coerce(args[i], type, opts), () => queryError("InvalidArguments", "ANONYMOUS", detail));
}

/** `f()`, or the error `fail` makes when f's coercion fails (SurrealDB names the offending item). */
function orElse(f: () => Value, fail: (e: CoerceError) => Error): Value {
  try {
    return f();
  } catch (e) {
    if (e instanceof CoerceError) throw fail(e);
    throw e;
  }
}

/** Evaluate a call; `preArgs` replaces the argument expressions (method syntax). Every result is held to the value limits. */
export async function callFunction(e: CallExpr, ctx: Ctx, preArgs?: Value[]): Promise<Value> {
  if (ctx.core.functionDenied?.(e.name)) throw queryError("FunctionNotAllowed", e.name);
  const args: Value[] = preArgs ?? [];
  if (!preArgs) for (const a of e.args) args.push(await evaluate(a, ctx));
  if (e.name.toLowerCase().startsWith("fn::")) return ctx.budget.charged(await callCustom(e.name.slice(4), args, ctx));
  // a checkpoint before (cancellation, the scheduler's turn) and the deadline after: one builtin (a sort of a million
  // values) may run for seconds, and nested calls had no checkpoint between them (attack pass 7, E6)
  const pause = ctx.budget.checkpoint();
  if (pause) await pause;
  // its result is charged to the query, wherever it is then held (attack pass 9, G1)
  const out = ctx.budget.charged(await callBuiltin(e.name, args, functionContext(ctx)));
  const after = ctx.budget.checkpointNow();
  if (after) await after;
  return out;
}

async function callCustom(name: string, args: Value[], ctx: Ctx): Promise<Value> {
  const def = ctx.core.catalog.db(needNs(ctx), needDb(ctx))?.functions.get(name);
  if (!def) throw queryError("FcNotFound", name);
  if (!(await definitionPermits(ctx, { kind: "function", def }))) throw queryError("FunctionPermissions", name);
  const required = def.args.filter((a) => !(a.type.kind === "Option")).length;
  if (args.length < required || args.length > def.args.length) {
    const n = def.args.length;
    throw queryError("InvalidArguments", `fn::${name}`, `The function expects ${n} argument${n === 1 ? "" : "s"}.`);
  }
  const bind: Record<string, Value> = {};
  def.args.forEach((a, i) => (bind[a.name] = coerce(args[i], a.type, { compat: ctx.core.compat })));
  try {
    const result = await runBlock(def.body.statements, bodyCtx(ctx, { args: bind }));
    return def.returns ? coerce(result, def.returns, { compat: ctx.core.compat }) : result;
  } catch (e) {
    if (e instanceof ReturnSignal) return def.returns ? coerce(e.value, def.returns, { compat: ctx.core.compat }) : e.value;
    // a BREAK / CONTINUE ends at the function's edge, even inside a loop of its caller
    if (e instanceof BreakSignal || e instanceof ContinueSignal) throw controlFlowError(e);
    throw e;
  }
}
