// type::field / type::fields: fields named by strings, read from the current document; in a SELECT projection each
// is placed under its own path, as if the idiom were written there (SurrealDB 1.5.4 and 2.6.0).

import type { CallExpr, Expr, IdiomExpr } from "../ast/nodes.js";
import { parseExpr } from "../../grammar/index.js";
import { parseErrorAt } from "../../grammar/errors.js";
import type { Value } from "../value/types.js";
import type { Ctx } from "./context.js";
import type { Compat } from "./session.js";
import { evaluate } from "./expressions/evaluate.js";

/** The idiom a type::field string names; anything else is SurrealDB's parse error. */
export function fieldIdiom(text: string): IdiomExpr {
  const e = parseExpr(text);
  if (e.kind !== "Idiom") throw parseErrorAt(text, 0, Math.max(1, text.length), `Unexpected token \`${text}\`, expected an identifier`, ["an identifier"]);
  return e;
}

/** The value of the field `text` names in the document `ctx` is on. */
export const fieldValue = (text: string, ctx: Ctx): Promise<Value> => evaluate(fieldIdiom(text), ctx);

/** Is `e` a type::field / type::fields call, which a projection places under the named paths? */
export function isNamedFields(e: Expr): e is CallExpr {
  return e.kind === "Call" && (e.name === "type::field" || e.name === "type::fields");
}

/**
 * The path a named field is projected at: its field names and indexes (`tags[0]` → tags.0); a part of another kind
 * (`tags[*]`, `address.*`) ends the path there with the value NULL (1.x: an empty object), as SurrealDB sets it.
 */
export function namedFieldPlace(idiom: IdiomExpr, value: Value, compat: Compat): { path: string[]; value: Value } {
  const path: string[] = [];
  for (const p of idiom.parts) {
    if (p.kind === "Field") path.push(p.name);
    else if (p.kind === "Index" && p.index.kind === "Literal") path.push(String(p.index.value));
    else return { path, value: compat === 1 ? {} : null };
  }
  return { path, value };
}
