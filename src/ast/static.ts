// ast/: which expressions SurrealDB counts as static (computed from nothing a document or a variable holds).

import type { Expr, ExprKind } from "./nodes.js";

type Judge<K extends ExprKind> = (e: Extract<Expr, { kind: K }>, compat: 1 | 2) => boolean;

/** Literals, constants, record ids, and arrays / objects / casts / builtin calls of static parts (recorded from 2.6.0 and 1.5.4: `1 + 1`, `[1][0]`, `1..2` are not). */
const STATIC: { readonly [K in ExprKind]: Judge<K> } = {
  Literal: () => true,
  Constant: () => true,
  RecordId: () => true,
  Table: () => true,
  Array: (e, compat) => e.items.every((x) => isStaticExpr(x, compat)),
  Object: (e, compat) => e.entries.every((x) => isStaticExpr(x.value, compat)),
  // 1.5.4 counts no cast static
  Cast: (e, compat) => compat === 2 && isStaticExpr(e.expr, compat),
  Call: (e, compat) => !e.name.toLowerCase().startsWith("fn::") && e.args.every((x) => isStaticExpr(x, compat)),
  Param: () => false,
  Idiom: () => false,
  Binary: () => false,
  Unary: () => false,
  Subquery: () => false,
  Block: () => false,
  Mock: () => false,
  RangeValue: () => false,
  Closure: () => false,
};

export function isStaticExpr(e: Expr, compat: 1 | 2): boolean {
  return (STATIC[e.kind] as Judge<ExprKind>)(e as never, compat);
}
