// Entry point for builtin calls: exec/ evaluates `name(args…)` through callBuiltin; the registry checks arguments.

import { QueryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";
import type { Compat } from "../session.js";
import type { FunctionContext } from "./context.js";
import { checkArguments, type Builtin, type BuiltinTable } from "./registry.js";
import { arrayFunctions } from "./array.js";
import { bytesFunctions } from "./bytes.js";
import { cryptoFunctions } from "./crypto.js";
import { durationFunctions } from "./duration.js";
import { encodingFunctions } from "./encoding.js";
import { mathFunctions } from "./math.js";
import { objectFunctions } from "./object.js";
import { parseFunctions } from "./parse.js";
import { randFunctions } from "./rand.js";
import { recordFunctions } from "./record.js";
import { miscFunctions } from "./misc.js";
import { sessionFunctions } from "./session.js";
import { stringFunctions } from "./string.js";
import { timeFunctions } from "./time.js";
import { typeFunctions } from "./type.js";

export type { FunctionContext } from "./context.js";

const TABLES: readonly BuiltinTable[] = [
  arrayFunctions,
  bytesFunctions,
  cryptoFunctions,
  durationFunctions,
  encodingFunctions,
  mathFunctions,
  miscFunctions,
  objectFunctions,
  parseFunctions,
  randFunctions,
  recordFunctions,
  sessionFunctions,
  stringFunctions,
  timeFunctions,
  typeFunctions,
];

/** Lower-cased name → canonical name and declarations (several when the versions differ). */
const REGISTRY = new Map<string, { name: string; def: Builtin }[]>();
for (const table of TABLES) {
  for (const [name, def] of Object.entries(table)) {
    const key = name.toLowerCase();
    REGISTRY.set(key, [...(REGISTRY.get(key) ?? []), { name, def }]);
  }
}

function find(name: string, compat: Compat | undefined): { name: string; def: Builtin } | undefined {
  const entry = REGISTRY.get(name.toLowerCase())?.find((e) => compat === undefined || e.def.compat === undefined || e.def.compat === compat);
  if (!entry) return undefined;
  return compat === 1 && entry.def.v1 ? { name: entry.name, def: entry.def.v1 } : entry;
}

function lookup(name: string, compat: Compat | undefined): Builtin | undefined {
  return find(name, compat)?.def;
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
  const found = find(name, ctx.compat);
  if (!found) throw new QueryError("InvalidFunction", unknownFunctionMessage(name.toLowerCase(), ctx.compat));
  const checked = checkArguments(found.name, found.def, args, ctx);
  return await found.def.impl(checked, ctx);
}

/** Every builtin name available in `compat` (for diagnostics and tests). */
export function builtinNames(compat?: Compat): string[] {
  return [...REGISTRY.values()]
    .flat()
    .filter((e) => compat === undefined || e.def.compat === undefined || e.def.compat === compat)
    .map((e) => e.name)
    .sort();
}
