// iam/matrix: the identity kinds that can query one database (system roles per level, record accesses, guests) and
// what is known of each one's engine variables when a PERMISSIONS clause runs (auth.md §5, §6.2).

import type { Role } from "../../ast/nodes.js";
import type { StoredAccess, StoredUser } from "../../exec/contract.js";
import type { Catalog } from "../../store/catalog.js";
import { SELF, SOME, UNKNOWN, known, type Abs, type Facts } from "./abstract.js";
import type { Identity } from "./types.js";

const ROLES: readonly Role[] = ["OWNER", "EDITOR", "VIEWER"];
const LEVELS = ["root", "namespace", "database"] as const;

/** A user's strongest role: what it may do with data (Owner ⊇ Editor ⊇ Viewer, auth.md §1). */
function strongest(roles: readonly Role[]): Role | undefined {
  return ROLES.find((r) => roles.includes(r));
}

export interface DatabaseIdentities {
  readonly identities: readonly Identity[];
  /** Access methods whose tokens act as system users of this database (JWT, BEARER), with where they are defined. */
  readonly tokenAccesses: readonly string[];
}

/** Every identity kind that can query ns/db (record users are `access:NAME`, 1.x scope users `scope:NAME`). */
export function identitiesOf(catalog: Catalog, compat: 1 | 2, ns: string, db: string): DatabaseIdentities {
  const usersAt = { root: catalog.rootUsers, namespace: catalog.ns(ns)?.users, database: catalog.db(ns, db)?.users };
  const identities: Identity[] = [];
  // 1. each role at each level, with the users defined there whose strongest role it is
  for (const role of ROLES)
    for (const level of LEVELS) {
      const users = [...(usersAt[level]?.values() ?? [])].filter((u: StoredUser) => strongest(u.def.roles) === role).map((u) => u.def.name);
      identities.push({ id: `${level}:${role}`, kind: "system", level, role, users });
    }
  // 2. each record access (1.x scope) of the database
  const accesses = [...(catalog.db(ns, db)?.accesses.values() ?? [])];
  for (const a of accesses) if (a.def.access.kind === "Record") identities.push({ id: `${compat === 1 ? "scope" : "access"}:${a.def.name}`, kind: "record", access: a.def.name });
  // 3. guests
  identities.push({ id: "anonymous", kind: "anonymous" });
  const above = [...catalog.rootAccesses.values(), ...(catalog.ns(ns)?.accesses.values() ?? []), ...accesses];
  const tokenAccesses = above.filter((a: StoredAccess) => a.def.access.kind !== "Record").map((a) => `${a.def.name} (${a.def.base})`);
  return { identities, tokenAccesses };
}

/** The engine variable a compat names the access with, and the one it leaves to DEFINE PARAM (so unknown). */
const ACCESS_VAR = { 1: { own: "scope", session: "sc", rd: "sd" }, 2: { own: "access", session: "ac", rd: "rd" } } as const;

/**
 * What a clause knows of `who`'s variables (only the protected ones: the other name, `$scope` in 2.x or `$access` in
 * 1.x, may be a DEFINE PARAM). `tokenAccesses`: a system actor may carry a JWT access's name in `$access`.
 */
export function factsOf(who: Identity, compat: 1 | 2, tokenAccesses: boolean, ownRecord = false): Facts {
  const names = ACCESS_VAR[compat];
  const none = known(undefined);
  let access: Abs;
  let auth: Abs;
  let token: Abs;
  if (who.kind === "record") [access, auth, token] = [known(who.access), ownRecord ? SELF : SOME, SOME];
  else if (who.kind === "anonymous") [access, auth, token] = [none, none, none];
  else [access, auth, token] = [compat === 2 && tokenAccesses ? UNKNOWN : none, none, UNKNOWN];
  return {
    compat,
    params: new Map([
      [names.own, access],
      ["auth", auth],
      ["token", token],
    ]),
    session: new Map([
      [names.session, access],
      [names.rd, auth],
      ["tk", token],
    ]),
    ownRecord,
  };
}
