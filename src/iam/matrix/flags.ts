// iam/matrix: risky rules — a table open to every record user, a secret-named field record users can read, a select
// rule that ignores who asks, a rule naming a field the table does not define (#2757), a SIGNIN whose record its own
// user cannot read (#7464).

import type { Expr, Permission } from "../../ast/nodes.js";
import { tableTypeOf } from "../../ast/print.js";
import type { DatabaseEntry, TableEntry } from "../../store/catalog.js";
import { idiomText } from "../../store/catalog.js";
import { ruleCell, ruleText } from "./cells.js";
import { fieldsNamed, refersToIdentity, resultTables } from "./refs.js";
import { ACTIONS, type Action, type DatabaseMatrix, type Flag, type Identity, type TableRow } from "./types.js";
import type { Facts } from "./abstract.js";

export interface FlagInput {
  readonly matrix: DatabaseMatrix;
  readonly entry: DatabaseEntry;
  readonly compat: 1 | 2;
  readonly facts: (who: Identity, ownRecord?: boolean) => Facts;
}

/** Identities that never bypass PERMISSIONS: record users and guests. */
const endUsers = (m: DatabaseMatrix): Identity[] => m.identities.filter((i) => i.kind !== "system");
const label = (who: Identity): string => (who.kind === "record" ? `${who.id.startsWith("scope:") ? "scope" : "record"} users of ${who.access}` : "guests");
const where = (m: DatabaseMatrix) => ({ ns: m.ns, db: m.db });

/** Actions every record user (or guest) may do on any record of the table. */
function fullTable(input: FlagInput, t: TableRow): Flag[] {
  const who = endUsers(input.matrix);
  const open = ACTIONS.filter((a) => who.some((i) => t.cells[i.id]![a].decision === "always"));
  if (open.length === 0) return [];
  const whom = who.filter((i) => open.some((a) => t.cells[i.id]![a].decision === "always")).map(label);
  const rules = [...new Set(open.map((a) => t.rules[a]))].join("; ");
  const severity = open.some((a) => a !== "create") ? "high" : "medium";
  return [{ rule: "full-table", severity, ...where(input.matrix), table: t.name, why: `${open.join(", ")} allowed on every record for ${whom.join(" and ")} (${rules})` }];
}

/** Words of a field path (`refreshToken`, `api_key`, `credentials.password`). */
function words(path: string): string[] {
  return path
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

const SECRET_WORDS = new Set(["password", "passwd", "pass", "pwd", "passhash", "hash", "token", "secret", "key", "apikey", "salt", "otp", "credential", "credentials", "private", "privkey"]);
const SECRET_PARTS = /password|passwd|passhash|apikey|secrets?$|tokens?$/;

export function secretNamed(path: string): boolean {
  return words(path).some((w) => SECRET_WORDS.has(w) || SECRET_PARTS.test(w));
}

function secretFields(input: FlagInput, t: TableRow): Flag[] {
  const out: Flag[] = [];
  for (const f of t.fields) {
    if (!secretNamed(f.name)) continue;
    const readers = endUsers(input.matrix).filter((i) => f.cells[i.id]!.select.decision !== "never");
    if (readers.length === 0) continue;
    const always = readers.some((i) => f.cells[i.id]!.select.decision === "always");
    const conds = [...new Set(readers.flatMap((i) => f.cells[i.id]!.select.conditions.map((c) => c.text)))];
    const how = always ? "on every record" : `where ${conds.join(" and ")}`;
    out.push({ rule: "secret-field", severity: always ? "high" : "medium", ...where(input.matrix), table: t.name, field: f.name, why: `named like a secret and readable by ${readers.map(label).join(" and ")} ${how}; add PERMISSIONS FOR select NONE` });
  }
  return out;
}

function selectIgnoresIdentity(input: FlagInput, t: TableRow, entry: TableEntry): Flag[] {
  const rule = entry.def.permissions.select;
  const records = input.matrix.identities.filter((i) => i.kind === "record");
  if (rule.kind !== "Where" || records.length === 0 || records.every((i) => t.cells[i.id]!.select.decision === "never")) return [];
  if (refersToIdentity(rule.cond, input.entry)) return [];
  return [{ rule: "select-ignores-identity", severity: "medium", ...where(input.matrix), table: t.name, why: `the select rule (${t.rules.select}) never refers to $auth, $access / $scope or $token: every record user sees the same records` }];
}

/** Fields every record of a table has, defined or not. */
function implicitFields(entry: TableEntry, compat: 1 | 2): string[] {
  return tableTypeOf(entry.def, compat).kind === "Normal" ? ["id"] : ["id", "in", "out"];
}

function undefinedFields(input: FlagInput, entry: TableEntry): Flag[] {
  const defined = new Set([...entry.fields.keys()].map((k) => k.split(/[.[]/)[0]!));
  if (defined.size === 0 && !entry.def.schemafull) return [];
  for (const f of implicitFields(entry, input.compat)) defined.add(f);
  const sites: { field?: string; action: Action; p: Permission }[] = [
    ...ACTIONS.map((action) => ({ action, p: entry.def.permissions[action] })),
    ...[...entry.fields.values()].flatMap((f) => (["select", "create", "update"] as const).map((action) => ({ field: idiomText(f.name), action, p: f.permissions[action] }))),
  ];
  const out: Flag[] = [];
  const reported = new Set<string>();
  for (const s of sites) {
    if (s.p.kind !== "Where") continue;
    for (const name of fieldsNamed(s.p.cond)) {
      const key = `${s.field ?? ""}\0${name}`;
      if (defined.has(name) || reported.has(key)) continue;
      reported.add(key);
      const rule = `${s.field === undefined ? "the table's" : `the field's`} ${s.action} rule (${ruleText(s.p, input.compat)})`;
      const why = entry.def.schemafull
        ? `${rule} names \`${name}\`, which ${entry.def.name} (SCHEMAFULL) does not define: it is always NONE there (SurrealDB #2757)`
        : `${rule} names \`${name}\`, which ${entry.def.name} does not define (SCHEMALESS, so records may still hold it; with fields defined it is likely a typo, SurrealDB #2757)`;
      out.push({ rule: "undefined-field", severity: entry.def.schemafull ? "high" : "low", ...where(input.matrix), table: entry.def.name, ...(s.field !== undefined ? { field: s.field } : {}), why });
    }
  }
  return out;
}

/** SIGNIN / SIGNUP return a record the signed-in user cannot select (their own `$auth` record). */
function signinUnreadable(input: FlagInput): Flag[] {
  const out: Flag[] = [];
  for (const who of input.matrix.identities) {
    if (who.kind !== "record") continue;
    const def = input.entry.accesses.get(who.access)?.def;
    // an AUTHENTICATE clause may make $auth another record than the one SIGNIN returns
    if (def?.access.kind !== "Record" || def.authenticate !== undefined) continue;
    const access = def.access;
    const clauses = [["SIGNIN", access.signin], ["SIGNUP", access.signup]] as const;
    for (const [clause, e] of clauses) {
      for (const table of new Set(e ? resultTables(e as Expr) : [])) {
        const t = input.entry.tables.get(table);
        if (!t || ruleCell(t.def.permissions.select, "table", input.facts(who, true)).decision !== "never") continue;
        out.push({
          rule: "signin-unreadable",
          severity: "high",
          ...where(input.matrix),
          table,
          access: who.access,
          why: `${clause} of ${who.access} returns ${table} records, but ${table}'s select rule (${ruleText(t.def.permissions.select, input.compat)}) never lets that user read their own record: SELECT * FROM $auth comes back empty (SurrealDB #7464)`,
        });
      }
    }
  }
  return out;
}

export function flagsOf(input: FlagInput): Flag[] {
  const out: Flag[] = [];
  for (const t of input.matrix.tables) {
    const entry = input.entry.tables.get(t.name)!;
    out.push(...fullTable(input, t), ...secretFields(input, t), ...selectIgnoresIdentity(input, t, entry), ...undefinedFields(input, entry));
  }
  return [...out, ...signinUnreadable(input)];
}
