// exec/: control-flow signals (RETURN, BREAK, CONTINUE) unwinding through blocks and loops.

import type { Value } from "../value/types.js";

export class ReturnSignal {
  constructor(readonly value: Value) {}
}
export class BreakSignal {}
export class ContinueSignal {}

/** A closure value (`|$x| $x * 2`) as the engine carries it; opaque to the value layer. */
export class ClosureValue {
  constructor(
    readonly args: readonly { readonly name: string }[],
    readonly body: import("../ast/nodes.js").Expr,
    readonly ctx: import("./context.js").Ctx,
  ) {}
}
