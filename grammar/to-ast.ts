// CST → AST: the entry points over to-ast/<topic>.ts (one function per CST rule, in the topic of its rule);
// applies operator precedence, fills defaults, desugars SCOPE / TOKEN.
import type * as A from "../src/ast/nodes.js";
import type * as C from "./cst.js";
import { Ctx, type Node } from "./to-ast/context.js";
import { expr } from "./to-ast/expressions.js";
import { query, queryStatement } from "./to-ast/statements.js";
import { typeKind } from "./to-ast/types.js";

export { recordKeyValue, setRecordIdParser } from "./to-ast/literals.js";

/** Builds the AST of one text's CST (the parser's rules return CstNode: each entry point names the rule it reads). */
export class AstBuilder extends Ctx {
  query(n: Node): A.Statement[] {
    return query(this, n as C.QueryCstNode);
  }

  /** The statement (if any) of a `queryStatement` node. */
  queryStatement(n: Node): A.Statement[] {
    return queryStatement(this, n as C.QueryStatementCstNode);
  }

  expr(n: Node): A.Expr {
    return expr(this, n as C.ExprCstNode);
  }

  type(n: Node): A.TypeKind {
    return typeKind(this, n as C.TypeCstNode);
  }
}
