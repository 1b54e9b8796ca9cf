// exec/: control-flow signals (RETURN, BREAK, CONTINUE) unwinding through blocks and loops.

import type { ClosureExpr, Expr, TypeKind } from "../ast/nodes.js";
import { printExpr } from "../ast/print.js";
import { Closure, type Value } from "../value/types.js";

export class ReturnSignal {
  constructor(readonly value: Value) {}
}
export class BreakSignal {}
export class ContinueSignal {}

/** A closure value (`|$x| $x * 2`) as the engine carries it: its variables and the rights it was written with, never a session. */
export class ClosureValue extends Closure {
  constructor(
    readonly args: ClosureExpr["args"],
    readonly body: Expr,
    readonly vars: import("./context.js").Vars,
    readonly madeWith: import("./context.js").Rights,
    readonly returns?: TypeKind,
  ) {
    super();
  }

  get text(): string {
    return printExpr({ kind: "Closure", args: this.args, returns: this.returns, body: this.body });
  }
}
