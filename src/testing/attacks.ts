// Queries a record user could send against a user's schema: the attacker vocabulary (vocabulary.ts) aimed at its
// tables, fields, params and functions. Ids are placeholders resolved when the case runs: ⟦victim⟧ and ⟦attacker⟧
// (the two record users), ⟦victim.T⟧ (a record of table T the victim created; `T:nobody` if none).

import fc from "fast-check";
import type { Compat } from "../exec/session.js";
import type { FieldShape, SchemaShape } from "./schema.js";
import { classOfName, leak, letStep, NAMED_CLASSES, pick, protectedNameArms, protectedNames, queryStep, type Arm, type AttackStep, type Parties } from "./vocabulary.js";

export const VICTIM = "⟦victim⟧";
export const ATTACKER = "⟦attacker⟧";
export const victimOf = (table: string): string => `⟦victim.${table}⟧`;

/** What the attacker aims at. */
export interface Target {
  readonly compat: Compat;
  readonly ns: string;
  readonly db: string;
  /** The record access method both users signed up with, and its signup variables. */
  readonly access: string;
  readonly signupVars: readonly string[];
  /** Each table's top-level fields, and those linking to a record user (`owner`, `author`: who a rule says owns it). */
  readonly tables: readonly { readonly name: string; readonly fields: readonly string[]; readonly owners: readonly string[]; readonly relation: boolean }[];
  /** Fields of the record users' own table that SIGNUP does not set (a role, `admin`): the attacker may try to set them. */
  readonly escalations: readonly string[];
  readonly params: readonly string[];
  readonly functions: readonly { readonly name: string; readonly args: number }[];
}

/** The target of a schema's record access method `access` (in its ns / db). */
export function targetOf(schema: SchemaShape, access: SchemaShape["accesses"][number], compat: Compat): Target {
  const here = <T extends { ns: string; db: string }>(xs: readonly T[]): T[] => xs.filter((x) => x.ns === access.ns && x.db === access.db);
  const topLevel = (fields: readonly FieldShape[]): string[] => [...new Set(fields.map((f) => f.path.split(/[.[]/)[0]!).filter((f) => !["id", "in", "out"].includes(f)))];
  const links = (f: FieldShape): boolean => {
    const t = f.type?.kind === "Option" ? f.type.inner : f.type;
    return t?.kind === "Record" && (t.tables.length === 0 || t.tables.includes(access.table ?? ""));
  };
  const users = here(schema.tables).find((tb) => tb.name === access.table);
  const signedUp = new Set(access.signupVars.map((v) => v.field));
  return {
    compat,
    ns: access.ns,
    db: access.db,
    access: access.name,
    signupVars: access.signupVars.map((v) => v.name),
    tables: here(schema.tables).map((t) => ({ name: t.name, fields: topLevel(t.fields).length ? topLevel(t.fields) : ["note"], owners: t.fields.filter(links).map((f) => f.path), relation: t.relation !== undefined })),
    escalations: topLevel((users?.fields ?? []).filter((f) => !signedUp.has(f.path) && !f.computed)),
    params: here(schema.params).map((p) => p.name),
    functions: here(schema.functions).map((f) => ({ name: f.name, args: f.args })),
  };
}

type Table = Target["tables"][number];

/** `SET f = v`, `MERGE { f: v }` or `CONTENT { f: v }`. */
const assign = (form: string, f: string, v: string): string => (form === "SET" ? `SET ${f} = ${v}` : `${form} { ${f}: ${v} }`);

function arms(t: Target): Arm<string>[] {
  const p: Parties = { victim: VICTIM, attacker: ATTACKER, ns: t.ns, db: t.db };
  const tables = t.tables.length ? t.tables : [{ name: "thing", fields: ["note"], owners: [], relation: false }];
  const table = pick(tables);
  const field = (tb: Table): fc.Arbitrary<string> => pick(tb.fields);
  const id = (tb: Table): string => victimOf(tb.name);
  // values the attacker may address directly: the victim's records and fields, whole tables, params, functions
  const globals = fc.oneof(
    table.chain((tb) => field(tb).map((f) => `${id(tb)}.${f}`)),
    table.map((tb) => `${id(tb)}.*`),
    table.map((tb) => `(SELECT * FROM ${tb.name})`),
    table.chain((tb) => field(tb).map((f) => `(SELECT VALUE ${f} FROM ${tb.name})`)),
    table.map((tb) => `(SELECT * FROM ${tb.name})[0]`),
    fc.constant(`${VICTIM}.*`),
    ...(t.params.length ? [pick(t.params).map((n) => `$${n}`)] : []),
    ...(t.functions.length ? [pick(t.functions).map((f) => `fn::${f.name}(${Array.from({ length: f.args }, () => VICTIM).join(", ")})`)] : []),
    ...(tables.some((tb) => tb.relation) ? [pick(tables.filter((tb) => tb.relation)).chain((tb) => pick(["->", "<-"]).map((d) => `${VICTIM}${d}${tb.name}.*`))] : []),
  );
  const global = leak(globals);
  // values of the document being processed (the victim's, if the rule is broken)
  const docSource = (tb: Table): fc.Arbitrary<string> =>
    leak(fc.oneof({ weight: 3, arbitrary: fc.tuple(pick(["", "$this.", "$before.", "$parent.", "$after."]), field(tb)).map(([a, f]) => `${a}${f}`) }, { weight: 1, arbitrary: pick(["$this", "$before", "$after"]) }, { weight: 1, arbitrary: globals }));
  const targets = (tb: Table): fc.Arbitrary<string> => pick([tb.name, id(tb), `${id(tb)}, ${ATTACKER}`, `(SELECT VALUE id FROM ${tb.name})`]);
  const returnClause = (tb: Table): fc.Arbitrary<string> =>
    fc.oneof({ weight: 3, arbitrary: pick(["", " RETURN NONE", " RETURN BEFORE", " RETURN AFTER", " RETURN DIFF"]) }, { weight: 2, arbitrary: docSource(tb).map((v) => ` RETURN ${v}`) });
  const where = (tb: Table): fc.Arbitrary<string> => fc.option(docSource(tb).map((v) => ` WHERE ${v} = 1`), { nil: "", freq: 3 });

  const projection = (tb: Table): fc.Arbitrary<string> =>
    fc.oneof(fc.constant("*"), docSource(tb).map((v) => `${v} AS x`), docSource(tb).map((v) => `VALUE ${v}`), fc.constant("(SELECT * FROM $parent.id) AS x"), field(tb).map((f) => `count(${f}) AS x`));
  const tail = (tb: Table): fc.Arbitrary<string> =>
    fc.oneof({ weight: 3, arbitrary: fc.constant("") }, { weight: 1, arbitrary: field(tb).chain((f) => pick([" GROUP ALL", ` FETCH ${f}`, ` ORDER BY ${f}`, ` SPLIT ${f}`, " LIMIT 1", " PARALLEL", " TIMEOUT 1s", " EXPLAIN"])) });
  const select = table.chain((tb) =>
    fc.tuple(projection(tb), pick([tb.name, id(tb), `ONLY ${id(tb)}`, "$auth"]), where(tb), tail(tb)).map(([pr, from, w, rest]) => `SELECT ${pr} FROM ${from}${w}${rest}`),
  );
  // a condition on a value the attacker may not see: rows, counts and orders must not tell
  const probe = table.chain((tb) =>
    fc
      .tuple(field(tb), pick(["<", ">", "=", "!=", "CONTAINS"]), pick(["'T'", "'m'", "NONE", "''"]), pick(["VALUE id|", "count()| GROUP ALL", "*|", "VALUE id| LIMIT 1"]))
      .map(([f, op, v, shape]) => `SELECT ${shape.split("|")[0]} FROM ${tb.name} WHERE ${f} ${op} ${v}${shape.split("|")[1]}`),
  );
  const data = (tb: Table): fc.Arbitrary<string> =>
    fc.oneof(
      fc.tuple(field(tb), docSource(tb)).map(([f, v]) => `SET ${f} = ${v}`),
      fc.tuple(field(tb), docSource(tb)).map(([f, v]) => `MERGE { ${f}: ${v} }`),
      // values a rule might trust (`$input.owner = $auth.id`, a role)
      fc.tuple(field(tb), pick(["true", "'admin'", "NONE", ATTACKER, "$auth.id"]), pick(["SET", "MERGE", "CONTENT"])).map(([f, v, form]) => assign(form, f, v)),
      fc.tuple(field(tb), docSource(tb)).map(([f, v]) => `CONTENT { ${f}: ${v} }`),
    );
  const update = (verb: string): fc.Arbitrary<string> => table.chain((tb) => fc.tuple(targets(tb), data(tb), where(tb), returnClause(tb)).map(([tg, d, w, r]) => `${verb} ${tg} ${d}${w}${r}`));
  const insert = table.chain((tb) =>
    fc
      .tuple(field(tb), docSource(tb), fc.option(fc.tuple(field(tb), docSource(tb)).map(([f, v]) => ` ON DUPLICATE KEY UPDATE ${f} = ${v}`), { nil: "" }), returnClause(tb))
      .map(([f, v, dup, r]) => `INSERT INTO ${tb.name} { id: ${id(tb)}, ${f}: ${v} }${dup}${r}`),
  );
  const create = table.chain((tb) => fc.tuple(pick([tb.name, id(tb)]), field(tb), global, returnClause(tb)).map(([tg, f, v, r]) => `CREATE ${tg} SET ${f} = ${v}${r}`));
  const del = table.chain((tb) => fc.tuple(targets(tb), where(tb), pick(["", " RETURN BEFORE", " RETURN DIFF"])).map(([tg, w, r]) => `DELETE ${tg}${w}${r}`));
  const relations = tables.filter((tb) => tb.relation);
  const relate = relations.length
    ? pick(relations).chain((tb) => fc.tuple(pick([ATTACKER, VICTIM, "$auth"]), pick([VICTIM, ATTACKER]), fc.oneof(fc.constant(""), global.map((v) => ` SET ${tb.fields[0]} = ${v}`)), returnClause(tb)).map(([a, b, d, r]) => `RELATE ${a}->${tb.name}->${b}${d}${r}`))
    : undefined;
  // taking over the victim's record: the owner field set to the attacker
  const owned = tables.filter((tb) => tb.owners.length);
  const takeover = owned.length
    ? pick(owned).chain((tb) =>
        fc
          .tuple(pick(["UPDATE", t.compat === 2 ? "UPSERT" : "UPDATE"]), pick(tb.owners), pick([ATTACKER, "$auth.id"]), pick(["SET", "MERGE", "CONTENT"]), returnClause(tb))
          .map(([verb, f, v, form, r]) => `${verb} ${id(tb)} ${assign(form, f, v)}${r}`),
      )
    : undefined;
  // the attacker granting itself a field of its own record that SIGNUP does not set, then reading
  const escalate = t.escalations.length
    ? fc.tuple(pick(t.escalations), pick(["true", "'admin'"]), pick(["SET", "MERGE"])).map(([f, v, form]) => [`UPDATE $auth ${assign(form, f, v)}`, ...tables.map((tb) => `SELECT * FROM ${tb.name}`)].join("; "))
    : undefined;
  const forLoop = table.chain((tb) =>
    fc
      .tuple(pick([`(SELECT * FROM ${tb.name})`, `[${id(tb)}]`, `(SELECT VALUE id FROM ${tb.name})`]), pick(["THROW <string> $r", `CREATE ${tb.name} SET ${tb.fields[0]} = <string> $r`, `UPDATE $auth SET ${tb.fields[0]} = <string> $r`]))
      .map(([it, body]) => `FOR $r IN ${it} { ${body} }`),
  );
  const closure = table.map((tb) => `RETURN array::map([${id(tb)}], |$r| <string> $r.*)`);
  const ddl = table.chain((tb) =>
    field(tb).chain((f) =>
      pick([`DEFINE TABLE ${tb.name} PERMISSIONS FULL; SELECT * FROM ${tb.name}`, `DEFINE FIELD ${f} ON ${tb.name} PERMISSIONS FULL; SELECT * FROM ${tb.name}`, `REMOVE TABLE ${tb.name}`, "INFO FOR DB", `INFO FOR TABLE ${tb.name}`, ...t.params.map((n) => `REMOVE PARAM ${n}`)]),
    ),
  );
  const reads = fc.sample(globals, { numRuns: 24, seed: 1 });
  const readStatements = [...new Set(tables.flatMap((tb) => [`SELECT * FROM ${tb.name}`, `SELECT * FROM ${id(tb)}`]))];
  const names = protectedNames(t.params);
  return [
    { tag: "read", weight: 5, sql: select },
    { tag: "read", weight: 2, sql: global.map((v) => `RETURN ${v}`) },
    { tag: "read", weight: 1, sql: globals.map((v) => `IF <int> ${v} THEN 1 END`) },
    { tag: "oracle", weight: 2, sql: probe, bare: true },
    { tag: "write", weight: 4, sql: update("UPDATE") },
    { tag: "write", weight: t.compat === 2 ? 2 : 0, sql: update("UPSERT") },
    { tag: "write", weight: 3, sql: insert },
    { tag: "write", weight: 2, sql: create },
    { tag: "write", weight: 2, sql: del },
    ...(relate ? [{ tag: "write", weight: 2, sql: relate }] : []),
    ...(takeover ? [{ tag: "takeover", weight: 2, sql: takeover }] : []),
    ...(escalate ? [{ tag: "escalate", weight: 2, sql: escalate, bare: true as const }] : []),
    { tag: "loop", weight: 2, sql: forLoop },
    { tag: "loop", weight: t.compat === 2 ? 1 : 0, sql: closure },
    { tag: "ddl", weight: 1, sql: ddl },
    ...NAMED_CLASSES.flatMap((cls) => protectedNameArms(cls, names[cls], t.compat, p, reads, readStatements)),
  ];
}

/** The RPC methods that read or write records, and sign-in attempts, aimed at the victim's records. */
function rpcStep(t: Target): fc.Arbitrary<AttackStep> {
  const tables = t.tables.length ? t.tables.map((tb) => tb.name) : ["thing"];
  const victimId = pick(tables).map(victimOf);
  const some = fc.oneof(victimId, pick(tables).map((tb) => `'${tb}'`));
  const ac = `${t.compat === 1 ? "SC" : "AC"}: '${t.access}'`;
  const signVars = (extra: string): string => `[{ NS: '${t.ns}', DB: '${t.db}', ${ac}${t.signupVars.map((v) => `, ${v}: 'x'`).join("")}${extra} }]`;
  const calls: fc.Arbitrary<[string, string]>[] = [
    some.map((w) => ["select", `[${w}]`]),
    fc.tuple(pick(["update", "merge", ...(t.compat === 2 ? ["upsert"] : [])]), some).map(([m, w]) => [m, `[${w}, { note: 'x' }]`]),
    victimId.map((w) => ["patch", `[${w}, [{ op: 'replace', path: '/note', value: 'x' }], true]`]),
    some.map((w) => ["delete", `[${w}]`]),
    victimId.map((w) => ["create", `[${w}, { note: 'x' }]`]),
    pick(tables).map((tb) => ["insert", `['${tb}', { id: ${victimOf(tb)}, note: 'x' }]`]),
    pick(["signin", "signup"]).chain((m) => pick(["", ", password: NONE", ", password: { }", ...t.params.map((n) => `, ${n}: true`)]).map((extra): [string, string] => [m, signVars(extra)])),
    ...(t.functions.length ? [pick(t.functions).map((f): [string, string] => ["run", `['fn::${f.name}', NONE, [${Array.from({ length: f.args }, () => VICTIM).join(", ")}]]`])] : []),
    pick(["authenticate", "invalidate", "info"]).map((m): [string, string] => [m, m === "authenticate" ? "['eyJhbGciOiJIUzUxMiJ9.e30.x']" : "[]"]),
  ];
  return fc.oneof(...calls).map(([method, params]): AttackStep => ({ kind: "rpc", tag: "rpc", method, params }));
}

/** 1–`max` steps a record user could send: queries (some with client variables), RPC calls, RPC `let`. */
export function attackerSteps(t: Target, max = 4): fc.Arbitrary<AttackStep[]> {
  const names = protectedNames(t.params);
  const all = NAMED_CLASSES.flatMap((cls) => names[cls]);
  const classOf = (n: string): string => classOfName(names, n);
  const p: Parties = { victim: VICTIM, attacker: ATTACKER, ns: t.ns, db: t.db };
  const l = letStep(all, classOf, p);
  const step = fc.oneof({ weight: 10, arbitrary: queryStep(arms(t), "read", all, classOf, p) }, { weight: 2, arbitrary: rpcStep(t) }, ...(l ? [{ weight: 1, arbitrary: l }] : []));
  return fc.array(step, { minLength: 1, maxLength: max });
}
