// exec/: control-flow signals (RETURN, BREAK, CONTINUE) unwinding through blocks and loops.

import type { Value } from "../value/types.js";

export class ReturnSignal {
  constructor(readonly value: Value) {}
}
export class BreakSignal {}
export class ContinueSignal {}

/** A closure value (`|$x| $x * 2`) as the engine carries it: its variables and the rights it was written with, never a session. */
export class ClosureValue {
  constructor(
    readonly args: import("../ast/nodes.js").ClosureExpr["args"],
    readonly body: import("../ast/nodes.js").Expr,
    readonly vars: import("./context.js").Vars,
    readonly madeWith: import("./context.js").Rights,
    readonly returns?: import("../ast/nodes.js").TypeKind,
  ) {}
}
