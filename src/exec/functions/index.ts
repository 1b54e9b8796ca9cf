// Entry point for builtin calls: exec/ evaluates `name(args…)` through callBuiltin; the registry checks arguments.

import { QueryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";
import type { Compat } from "../session.js";
import type { FunctionContext } from "./context.js";
import { checkArguments, type Builtin, type BuiltinTable } from "./registry.js";
import { cryptoFunctions } from "./crypto.js";
import { miscFunctions } from "./misc.js";
import { sessionFunctions } from "./session.js";

export type { FunctionContext } from "./context.js";

const TABLES: readonly BuiltinTable[] = [miscFunctions, sessionFunctions, cryptoFunctions];

const REGISTRY = new Map<string, Builtin>();
for (const table of TABLES) for (const [name, def] of Object.entries(table)) REGISTRY.set(name, def);

function lookup(name: string, compat: Compat | undefined): Builtin | undefined {
  const def = REGISTRY.get(name.toLowerCase());
  if (!def) return undefined;
  if (compat !== undefined && def.compat !== undefined && def.compat !== compat) return undefined;
  return def;
}

/** Is `name` a builtin function (in `compat`, when given)? The parser uses this to reject unknown paths. */
export function isBuiltin(name: string, compat?: Compat): boolean {
  return lookup(name, compat) !== undefined;
}

/** SurrealDB reports an unknown function at parse time; this is its text (without the parse-error framing). */
export function unknownFunctionMessage(name: string, compat: Compat): string {
  if (compat === 1) {
    const ns = name.split("::")[0] ?? name;
    return `Path is not a member of ${ns}`;
  }
  return "Invalid function/constant path";
}

/** Call builtin `name` (as written) with evaluated `args`; throws SurrealDB's errors. */
export async function callBuiltin(name: string, args: Value[], ctx: FunctionContext): Promise<Value> {
  const key = name.toLowerCase();
  const def = lookup(key, ctx.compat);
  if (!def) throw new QueryError("InvalidFunction", unknownFunctionMessage(key, ctx.compat));
  const checked = checkArguments(key, def, args, ctx);
  return await def.impl(checked, ctx);
}

/** Every builtin name available in `compat` (for diagnostics and tests). */
export function builtinNames(compat?: Compat): string[] {
  return [...REGISTRY.keys()].filter((n) => isBuiltin(n, compat)).sort();
}
