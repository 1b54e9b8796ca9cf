// exec/: control-flow signals (RETURN, BREAK, CONTINUE) unwinding through blocks and loops.

import type { ClosureExpr } from "../ast/nodes.js";
import { printExpr } from "../ast/print.js";
import { queryError, type QueryError } from "../errors/index.js";
import { Closure, type Value } from "../value/types.js";

export class ReturnSignal {
  constructor(readonly value: Value) {}
}
export class BreakSignal {}
export class ContinueSignal {}

/** The error a BREAK / CONTINUE becomes when it leaves every loop (or a custom function's body). */
export function controlFlowError(signal: BreakSignal | ContinueSignal): QueryError {
  return queryError("InvalidControlFlow", signal instanceof BreakSignal ? "Break" : "Continue");
}

/**
 * A closure value (`|$x| $x * 2`) as the engine carries it: its text and the rights it was written with, never a
 * session nor the variables around it (SurrealDB runs a closure on its arguments alone).
 */
export class ClosureValue extends Closure {
  constructor(
    readonly expr: ClosureExpr,
    readonly madeWith: import("./context.js").Rights,
  ) {
    super();
  }

  get text(): string {
    return printExpr(this.expr);
  }
}
