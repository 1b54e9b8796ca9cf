// exec/: the code an access method runs is part of the access method. Its clauses (SIGNUP / SIGNIN / AUTHENTICATE,
// 1.x scope SIGNUP / SIGNIN) reach `fn::` functions and `$params`, and through their bodies and values further ones;
// defining, overwriting or removing any of them rewrites the access method, so it needs the rights to define that
// access method (attack pass 3, A3: an EDITOR's `fn::pwcheck` harvested every signing-in user's plaintext password).
// Stricter than SurrealDB, which lets an EDITOR do it.

import type { Base } from "../ast/nodes.js";
import type { Ctx } from "./context.js";
import { checkAllowed, isAllowed } from "./rbac.js";

/** Function names (without `fn::`) and param names (without `$`). */
export interface Reach {
  readonly functions: Set<string>;
  readonly params: Set<string>;
}

/**
 * Add the custom functions a node calls and the `$names` it reads. A structural walk over the plain AST (stored
 * definitions are plain data), so no expression or statement kind can be missed: it only ever finds too much.
 */
export function namesIn(node: unknown, into: Reach): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) namesIn(n, into);
    return;
  }
  const { kind, name } = node as { kind?: unknown; name?: unknown };
  if (typeof name === "string") {
    if (kind === "Param") into.params.add(name);
    // `fn::x(…)` and the method form `v.fn::x(…)` both run the stored function (callFunction)
    else if ((kind === "Call" || kind === "Method") && name.toLowerCase().startsWith("fn::")) into.functions.add(name.slice(4));
  }
  for (const v of Object.values(node)) namesIn(v, into);
}

/** Where the access methods whose clauses run in ns/db are defined: that database, and (conservatively) above it. */
function levels(ns: string, db: string): { level: Base; ns: string | undefined; db: string | undefined }[] {
  return [
    { level: "DATABASE", ns, db },
    { level: "NAMESPACE", ns, db: undefined },
    { level: "ROOT", ns: undefined, db: undefined },
  ];
}

const empty = (): Reach => ({ functions: new Set(), params: new Set() });

/** Everything the clauses of the access methods defined at `at` reach in ns/db, through function bodies and param values. */
export function reachOf(ctx: Ctx, at: ReturnType<typeof levels>[number], ns: string, db: string): Reach {
  const reach = empty();
  for (const access of ctx.core.catalog.accessesAt(at.level, at.ns, at.db)?.values() ?? []) namesIn(access.def, reach);
  const entry = ctx.core.catalog.db(ns, db);
  const done = empty();
  // grow to a fixed point: each newly reached definition adds what it names
  for (let grew = true; grew; ) {
    grew = false;
    for (const what of ["functions", "params"] as const)
      for (const name of [...reach[what]]) {
        if (done[what].has(name)) continue;
        done[what].add(name);
        const def = entry?.[what].get(name);
        if (!def) continue;
        const inner = empty();
        namesIn(def, inner);
        // a function's own arguments shadow any DEFINE PARAM of that name inside it
        if (def.kind === "DefineFunction") for (const a of def.args) inner.params.delete(a.name);
        for (const f of inner.functions) reach.functions.add(f);
        for (const p of inner.params) reach.params.add(p);
        grew = true;
      }
  }
  return reach;
}

/**
 * Throw SurrealDB's IAM error unless the actor may define every access method whose clauses reach `fn::name`
 * (`what` "functions") or `$name` ("params") in ns/db — whether or not it exists yet: an EDITOR must not supply a
 * function a clause calls but nobody has defined.
 */
export function checkReach(ctx: Ctx, what: keyof Reach, name: string, ns: string, db: string): void {
  for (const at of levels(ns, db)) {
    const res = { kind: "Actor", level: at.level, ns: at.ns, db: at.db } as const;
    // whoever may define the access methods there may change what they reach: no walk needed
    if (isAllowed(ctx, "Edit", res)) continue;
    if (reachOf(ctx, at, ns, db)[what].has(name)) checkAllowed(ctx, "Edit", res);
  }
}
