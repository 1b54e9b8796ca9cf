// exec/statements: the statement dispatcher (one handler per statement kind) and block evaluation.

import type { Statement, StatementKind } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { withCtx } from "../context.js";
import { queryError } from "../../errors/index.js";
import { ReturnSignal } from "../signals.js";
import { runAlter } from "./alter.js";
import { runCreate } from "./create.js";
import { runDefine } from "./define.js";
import { runDelete } from "./delete.js";
import { runExpr } from "./expr.js";
import { runFor, runBreak, runContinue } from "./for.js";
import { runIf } from "./if.js";
import { runInfo } from "./info.js";
import { runInsert } from "./insert.js";
import { runLet } from "./let.js";
import { runKill, runLive } from "./live.js";
import { runRelate } from "./relate.js";
import { runRemove } from "./remove.js";
import { runReturn } from "./return.js";
import { runSelect } from "./select.js";
import { checkAllowed, optionResource } from "../rbac.js";
import { runSleep } from "./sleep.js";
import { runThrow } from "./throw.js";
import { runBegin, runCancel, runCommit } from "./transaction.js";
import { runUpdate } from "./update.js";
import { runUse } from "./use.js";

type Handler<K extends StatementKind> = (s: Extract<Statement, { kind: K }>, ctx: Ctx) => Promise<Value>;

const STATEMENTS: { [K in StatementKind]: Handler<K> } = {
  Use: runUse,
  Let: runLet,
  Return: runReturn,
  If: runIf,
  For: runFor,
  Throw: runThrow,
  Break: runBreak,
  Continue: runContinue,
  Sleep: runSleep,
  // inside a block: the same right as at the top (executor.ts checks a query's before it runs); no effect yet
  Option: async (_s, ctx) => {
    checkAllowed(ctx, "Edit", optionResource(ctx.session));
    return undefined;
  },
  Begin: runBegin,
  Commit: runCommit,
  Cancel: runCancel,
  Info: runInfo,
  Expr: runExpr,
  Create: runCreate,
  Select: runSelect,
  Update: runUpdate,
  Upsert: runUpdate,
  Delete: runDelete,
  Insert: runInsert,
  Relate: runRelate,
  Live: runLive,
  Kill: runKill,
  DefineNamespace: runDefine,
  DefineDatabase: runDefine,
  DefineUser: runDefine,
  DefineAccess: runDefine,
  DefineTable: runDefine,
  DefineField: runDefine,
  DefineIndex: runDefine,
  DefineParam: runDefine,
  DefineEvent: runDefine,
  DefineFunction: runDefine,
  DefineAnalyzer: runDefine,
  Remove: runRemove,
  AlterTable: runAlter,
};

/** Run one statement and return its value, within the query's budget and the statement's own TIMEOUT. */
export function runStatement(stmt: Statement, ctx: Ctx): Promise<Value> {
  // 1. a checkpoint: the deadline, and a yield to the event loop now and then (no promise on the hot path)
  let pause: Promise<void> | undefined;
  try {
    pause = ctx.budget.checkpoint();
  } catch (e) {
    return Promise.reject(e);
  }
  return pause ? pause.then(() => runWithin(stmt, ctx)) : runWithin(stmt, ctx);
}

function runWithin(stmt: Statement, ctx: Ctx): Promise<Value> {
  const handler = STATEMENTS[stmt.kind] as Handler<StatementKind>;
  // 2. TIMEOUT tightens the budget (1.x honours it on top-level statements only)
  const timeout = "timeout" in stmt && (ctx.core.compat === 2 || ctx.depth === 0) ? stmt.timeout : undefined;
  if (!timeout) return handler(stmt as never, ctx);
  const inner = withCtx(ctx, { budget: ctx.budget.within(Number(timeout.nanos) / 1e6) });
  // 3. a statement that ended past its TIMEOUT fails (its writes are cancelled with it)
  return handler(stmt as never, inner).then((value) => {
    if (inner.budget.expired) throw queryError("QueryTimedout");
    return value;
  });
}

/**
 * Run a `{ … }` block in its own variable scope; the value is the last statement's. A RETURN ends the block: in 1.x
 * only the block it stands in, in 2.x also the enclosing ones up to the nearest block expression, function or statement.
 */
export async function runBlock(statements: readonly Statement[], ctx: Ctx): Promise<Value> {
  const inner = withCtx(ctx, { vars: ctx.vars.child() });
  let last: Value = undefined;
  for (const s of statements) {
    if (s.kind === "Return") {
      const value = await runStatement(s, inner);
      if (ctx.core.compat === 1) return value;
      throw new ReturnSignal(value);
    }
    last = await runStatement(s, inner);
  }
  return last;
}

/** A block used as a value (`VALUE { … }`, `SET x = { … }`, PERMISSIONS WHERE { … }): a RETURN inside gives its value and goes no further. */
export async function blockValue(statements: readonly Statement[], ctx: Ctx): Promise<Value> {
  try {
    return await runBlock(statements, ctx);
  } catch (e) {
    if (e instanceof ReturnSignal) return e.value;
    throw e;
  }
}
