// CLI: identity specs — one string naming who runs a query (`root`, `viewer@db`, `record account signin {…}` …), parsed
// once and signed in on a Connection of an engine; shared by `surql-auth test` and `explain --as`.

import { randomUUID } from "node:crypto";
import { ownerSession } from "../import.js";
import { Connection, type SurqlAuth } from "../index.js";
import { escapeIdent, toSql } from "../value/index.js";
import { isValueObject, type ValueObject } from "../value/types.js";

export { IDENTITY_FORMS, IdentitySpecError, formatIdentity, parseIdentity, type IdentitySpec, type Level, type RoleName } from "../iam/identity-spec.js";
import type { IdentitySpec, Level, RoleName } from "../iam/identity-spec.js";

/** Where the identity works: its namespace and database (sign-in target of ns / db users and record users). */
export interface Where {
  readonly ns: string | undefined;
  readonly db: string | undefined;
}

const LEVEL_BASE: Record<Level, string> = { root: "ROOT", ns: "NAMESPACE", db: "DATABASE" };

/** Synthetic role users defined so far, per engine (a redefinition would end their earlier sessions). */
const defined = new WeakMap<SurqlAuth, Map<string, string>>();

/** Defines (once per engine) the user standing for `role@level` and returns its name and password. */
async function roleUser(auth: SurqlAuth, role: RoleName, lvl: Level, where: Where): Promise<{ name: string; pass: string }> {
  const name = `rule_test_${role.toLowerCase()}_${lvl}`;
  const users = defined.get(auth) ?? new Map<string, string>();
  defined.set(auth, users);
  let pass = users.get(name);
  if (pass === undefined) {
    pass = randomUUID();
    const root = rootConnection(auth, where);
    const [res] = await root.query(`DEFINE USER ${escapeIdent(name)} ON ${LEVEL_BASE[lvl]} PASSWORD ${toSql(pass)} ROLES ${role}`);
    if (res?.status !== "OK") throw new Error(`cannot define ${role.toLowerCase()}@${lvl}: ${String(res?.result)}`);
    users.set(name, pass);
  }
  return { name, pass };
}

/** A connection with a root owner's rights, on `where` (the embedded API's owner, no user defined). */
export function rootConnection(auth: SurqlAuth, where: Where): Connection {
  const session = ownerSession();
  session.ns = where.ns;
  session.db = where.db;
  return new Connection(auth.serverContext(), session);
}

/** The credentials object a system user's signin sends at `lvl`. */
function systemVars(lvl: Level, where: Where, user: string, pass: string): ValueObject {
  const scope: ValueObject = lvl === "root" ? {} : lvl === "ns" ? { NS: where.ns } : { NS: where.ns, DB: where.db };
  return { ...scope, user, pass };
}

/**
 * A new connection of `auth` signed in as `spec`, using `where`. A refused sign-in throws the Connection's error (an
 * RpcError whose `cause` is the SurrealError, e.g. InvalidAuth).
 */
export async function connectAs(auth: SurqlAuth, spec: IdentitySpec, where: Where): Promise<Connection> {
  if (spec.kind === "root") return rootConnection(auth, where);
  const conn = auth.connect({ ...(where.ns !== undefined ? { ns: where.ns } : {}), ...(where.db !== undefined ? { db: where.db } : {}) });
  switch (spec.kind) {
    case "anonymous":
      return conn;
    case "role": {
      const { name, pass } = await roleUser(auth, spec.role, spec.level, where);
      await conn.signin(systemVars(spec.level, where, name, pass));
      break;
    }
    case "user":
      await conn.signin(systemVars(spec.level, where, spec.name, spec.password));
      break;
    case "record": {
      const vars = await auth.engine.evaluate(spec.vars, ownerSession());
      if (!isValueObject(vars)) throw new Error("the sign-in variables are not an object");
      const target = { NS: where.ns, DB: where.db, [auth.compat === 1 ? "SC" : "AC"]: spec.access };
      await (spec.via === "signup" ? conn.signup({ ...vars, ...target }) : conn.signin({ ...vars, ...target }));
      return conn;
    }
    case "bound": {
      if (where.ns === undefined || where.db === undefined) throw new Error("a record user needs a namespace and a database");
      await auth.iam.bindRecord(conn.session, where.ns, where.db, spec.access, spec.record);
      return conn;
    }
    case "token":
      await conn.authenticate(spec.token);
      break;
  }
  // system users land on their level; queries run on `where`
  if (where.ns !== undefined) await conn.use(where.ns, where.db ?? null);
  return conn;
}

/** The message of a Connection's error: the SurrealError behind an RpcError (as SurrealDB words it). */
export function errorMessage(e: unknown): string {
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
