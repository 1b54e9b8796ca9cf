// Noninterference: the attacker's steps. Each aims the victim's protected values at a place the attacker can read
// (results, error texts, the attacker's own records): SELECT / UPDATE / UPSERT / INSERT / RELATE / DELETE / CREATE,
// subqueries, graph steps, pushdown-friendly WHERE, FOR, closures, USE, and protected variable names set by the
// client (query vars, LET, RPC let, FOR and closure parameters). The leak wrappers, the protected names and the step
// assembly are the shared vocabulary's (src/testing/vocabulary.ts); the arms aimed at this schema are here.

import fc from "fast-check";
import { classOfName, leak, letStep as sharedLetStep, NAMED_CLASSES, pick, protectedNameArms, queryStep as sharedQueryStep, type Arm as SharedArm, type AttackStep as SharedStep, type NamedClass } from "../../../src/testing/vocabulary.js";
import type { IssueClass } from "./classes.js";
import { ATTACKER, marker, VICTIM, type SchemaSpec } from "./schema.js";
import { DOC_SOURCES, FIELD, GLOBAL_SOURCES, PARTIES, PROTECTED_NAMES, READ_STATEMENTS, READS, TABLES, TARGETS, VICTIM_IDS, type Table } from "./vocabulary.js";

export type Tag = IssueClass | "base";
export type AttackStep = SharedStep<Tag>;
type Arm = SharedArm<Tag>;

const global = leak(pick(GLOBAL_SOURCES));
const table = pick(TABLES);
const docSource = (t: Table): fc.Arbitrary<string> => leak(fc.oneof({ weight: 3, arbitrary: pick(DOC_SOURCES[t]) }, { weight: 1, arbitrary: pick(GLOBAL_SOURCES) }));
const returnClause = (t: Table): fc.Arbitrary<string> =>
  fc.oneof({ weight: 3, arbitrary: pick(["", " RETURN NONE", " RETURN BEFORE", " RETURN AFTER", " RETURN DIFF"]) }, { weight: 2, arbitrary: leak(pick(DOC_SOURCES[t])).map((v) => ` RETURN ${v}`) });

function select(): Arm[] {
  const projection = (t: Table): fc.Arbitrary<string> =>
    fc.oneof(
      fc.constant("*"),
      docSource(t).map((v) => `${v} AS x`),
      leak(pick(DOC_SOURCES[t])).map((v) => `VALUE ${v}`),
      // A subquery per row: it must never run for a row the attacker cannot select.
      pick(DOC_SOURCES[t]).map((v) => `(UPDATE $auth.id SET note = <string> ${parentOf(v)}) AS x`),
      fc.constant("(SELECT * FROM $parent.id) AS x"),
      // Aggregates over rows: only the rows the attacker may select go in.
      fc.tuple(pick(["array::group", "array::distinct", "math::max", "count"]), pick(DOC_SOURCES[t])).map(([f, v]) => `${f}(${v}) AS x`),
    );
  const tail = (t: Table): fc.Arbitrary<string> =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: pick([" GROUP ALL", " FETCH owner, link", " FETCH links, ref", " FETCH in, out", " ORDER BY x", " SPLIT x", ` GROUP BY ${t === "knows" ? "in" : "id"}`, " PARALLEL", " TIMEOUT 1s"]) },
    );
  const plain = table.chain((t) =>
    fc
      .tuple(projection(t), fc.oneof(pick(TARGETS[t]), pick(["$auth", `ONLY ${VICTIM_IDS[t]}`])), fc.option(docSource(t).map((v) => ` WHERE ${v} = 1`), { nil: "" }), tail(t))
      .map(([p, from, where, rest]) => `SELECT ${p} FROM ${from}${where}${rest}`),
  );
  // Conditions an index answers: the operand is evaluated once, before any row is read.
  const pushdown = fc
    .tuple(pick(["user|email", "doc|owner", "doc|body", "user|id", "doc|id"]), pick(["=", "==", ">", "<=", "IN", "CONTAINS"]), global, pick(["", "", " EXPLAIN", " EXPLAIN FULL"]), pick(["", "", " WITH NOINDEX", " WITH INDEX "]))
    .map(([tf, op, v, explain, hint]) => {
      const [t, f] = tf.split("|") as [string, string];
      return `SELECT * FROM ${t}${hint.endsWith(" ") ? `${hint}${f === "id" ? "owner" : f}` : hint} WHERE ${f} ${op} ${op === "IN" ? `[${v}]` : v}${explain}`;
    });
  // Rows an index finds for the attacker's known values (the victim's id as owner): their permission still applies.
  const lookup = fc
    .tuple(pick(["user|id|user:victim", "doc|owner|user:victim", "doc|id|doc:v1", "knows|in|user:victim"]), pick(["", " EXPLAIN FULL"]))
    .chain(([tfv, explain]) => {
      const [t, f, v] = tfv.split("|") as [Table, string, string];
      return projection(t).map((p) => `SELECT ${p} FROM ${t} WHERE ${f} = ${v}${explain}`);
    });
  // A condition on a value the attacker may not select, where an index holds the stored value (attack pass 3, A2): the
  // twin's secrets sort after every bound below, the first run's between 'S' and 'T'; rows, order, windows and counts.
  const hiddenRange = fc
    .tuple(
      pick(["profile|ssn", "profile|ssn", "board|secret", "board|secret", "user|password", "profile|info.secret", "profile|info", "profile|codes", "profile|emails"]),
      pick(["<", "<=", ">", ">=", "<", ">", "=", "!=", "CONTAINS"]),
      // 'T' and 'zSECRET_' lie between the two runs' secrets
      pick(["'T'", "'T'", "'zSECRET_'", "'S'", "NONE", "NULL", "{ secret: 'T' }", "['T']"]),
      pick(["VALUE id|", "count()| GROUP ALL", "*|", "VALUE id| ORDER BY id", "VALUE id| LIMIT 1", "VALUE id| START 1 LIMIT 1", "VALUE id| EXPLAIN", "VALUE id| WITH INDEX"]),
    )
    .map(([tf, op, v, shape]) => {
      const [t, f] = tf.split("|") as [string, string];
      const [proj, rest] = shape.split("|") as [string, string];
      const hint = rest === " WITH INDEX" ? ` WITH INDEX ${f === "info.secret" ? "info_secret" : f === "codes" || f === "emails" ? "arr" : f}` : "";
      return `SELECT ${proj} FROM ${t}${hint} WHERE ${f} ${op} ${v}${hint ? "" : rest}`;
    });
  const hiddenWrite = fc
    .tuple(pick(["ssn", "info.secret", "codes"]), pick(["<", ">", "=", "!="]), pick(["'T'", "'S'", "NONE"]))
    .map(([f, op, v]) => `UPDATE profile SET x = 1 WHERE ${f} ${op} ${v} RETURN VALUE id`);
  return [
    { tag: "hidden-index", weight: 4, sql: hiddenRange, bare: true },
    { tag: "hidden-index", weight: 1, sql: hiddenWrite, bare: true },
    { tag: "base", weight: 5, sql: plain },
    { tag: "base", weight: 2, sql: global.map((v) => `RETURN ${v}`) },
    { tag: "base", weight: 1, sql: fc.tuple(pick(["THROW <string> ", "IF "]), pick(GLOBAL_SOURCES)).map(([k, v]) => (k === "IF " ? `IF <int> ${v} THEN 1 END` : `${k}${v}`)) },
    { tag: "pushdown", weight: 4, sql: pushdown },
    { tag: "pushdown", weight: 2, sql: lookup },
  ];
}

/** A document source as seen from a nested statement: `$parent.<field>`. */
function parentOf(v: string): string {
  return v.startsWith("$") ? v.replace(/^\$this|^\$before|^\$after|^\$parent/, "$parent") : `$parent.${v}`;
}

function writes(compat: 1 | 2): Arm[] {
  const data = (t: Table): fc.Arbitrary<string> =>
    fc.oneof(
      docSource(t).map((v) => `SET ${FIELD[t]} = ${v}`),
      docSource(t).map((v) => `MERGE { ${FIELD[t]}: ${v} }`),
      // The nested write copies the outer document's value into the attacker's own record.
      fc.tuple(pick(DOC_SOURCES[t]), pick([ATTACKER, "$auth.id"])).map(([v, me]) => `SET ${FIELD[t]} = (UPDATE ${me} SET note = <string> ${parentOf(v)})`),
      t === "user" ? fc.constant("CONTENT { name: 'x', email: 'x@x', password: 'x' }") : docSource(t).map((v) => `CONTENT { owner: ${ATTACKER}, ${FIELD[t]}: ${v} }`),
    );
  const update = (verb: string): fc.Arbitrary<string> =>
    table.chain((t) =>
      fc
        .tuple(pick(TARGETS[t]), data(t), fc.option(docSource(t).map((v) => ` WHERE ${v} = 1`), { nil: "", freq: 4 }), returnClause(t))
        .map(([target, d, where, ret]) => `${verb} ${target} ${d}${where}${ret}`),
    );
  const insert = table.chain((t) =>
    fc
      .tuple(
        fc.option(docSource(t).map((v) => `, ${FIELD[t]}: ${v}`), { nil: "" }),
        fc.option(docSource(t).map((v) => ` ON DUPLICATE KEY UPDATE ${FIELD[t]} = ${v}`), { nil: "" }),
        returnClause(t),
        fc.boolean(),
      )
      .map(([extra, dup, ret, relation]) =>
        t === "knows"
          ? `INSERT ${relation && compat === 2 ? "RELATION " : ""}INTO knows { id: knows:v, in: ${ATTACKER}, out: ${VICTIM}${extra} }${dup}${ret}`
          : `INSERT INTO ${t} { id: ${VICTIM_IDS[t]}, owner: ${ATTACKER}${extra} }${dup}${ret}`,
      ),
  );
  const relate = fc
    .tuple(pick(["$auth", ATTACKER, VICTIM]), pick([VICTIM, ATTACKER, "doc:v1"]), fc.oneof(global.map((v) => `SET note = ${v}`), fc.constant("SET id = knows:v"), global.map((v) => `CONTENT { note: ${v} }`)), returnClause("knows"))
    .map(([a, b, d, ret]) => `RELATE ${a}->knows->${b} ${d}${ret}`);
  const create = table.chain((t) =>
    fc
      .tuple(fc.oneof(fc.constant(t), fc.constant(VICTIM_IDS[t])), global, returnClause(t))
      .map(([target, v, ret]) => `CREATE ${target} SET owner = ${ATTACKER}, ${FIELD[t]} = ${v}${ret}`),
  );
  const del = table.chain((t) =>
    fc
      .tuple(pick(TARGETS[t]), fc.option(docSource(t).map((v) => ` WHERE ${v} = 1`), { nil: "" }), pick(["", " RETURN BEFORE", " RETURN DIFF"]))
      .map(([target, where, ret]) => `DELETE ${target}${where}${ret}`),
  );
  return [
    { tag: "data-clauses", weight: 5, sql: update("UPDATE") },
    { tag: "data-clauses", weight: compat === 2 ? 3 : 0, sql: update("UPSERT") },
    { tag: "insert-existing", weight: 3, sql: insert },
    // A unique-index clash with the victim's hidden record (whose id is secret).
    {
      tag: "index-error",
      weight: 2,
      sql: pick([
        `CREATE doc SET owner = ${ATTACKER}, title = 'v2'`,
        "UPDATE doc:e1 SET title = 'v2'",
        `INSERT INTO doc { owner: ${ATTACKER}, title: 'v2' }`,
        `UPSERT doc:e9 SET owner = ${ATTACKER}, title = 'v2'`,
        "UPDATE doc:e1 MERGE { title: 'v2' }",
      ]).map((sql) => (compat === 1 ? sql.replace("UPSERT", "UPDATE") : sql)),
    },
    // Overwriting a hidden field it may write: the old value must not come back (RETURN BEFORE, $before, DIFF).
    {
      tag: "base",
      weight: 2,
      sql: fc
        .tuple(pick(["UPDATE board", "UPDATE board:victim", compat === 2 ? "UPSERT board:victim" : "UPDATE board:victim"]), pick(["SET secret = 'public'", "MERGE { secret: 'public' }", "CONTENT { owner: user:victim, secret: 'public' }", "UNSET secret"]), pick([" RETURN BEFORE", " RETURN DIFF", " RETURN $before", " RETURN $before.secret", " RETURN AFTER", ""]))
        .map(([w, d, r]) => `${w} ${d}${r}`),
    },
    // Copies of every row the attacker may select (and no other).
    { tag: "base", weight: 1, sql: pick(["INSERT INTO doc (SELECT owner, body, link FROM doc)", "INSERT INTO doc (SELECT * FROM doc)", `INSERT INTO profile (SELECT ${ATTACKER} AS owner, ssn, emails, info FROM profile)`, "INSERT INTO knows (SELECT in, out, note FROM knows)"]) },
    { tag: "base", weight: 2, sql: relate },
    { tag: "base", weight: 2, sql: create },
    { tag: "base", weight: 2, sql: del },
  ];
}

/** Writes that make field processing re-check board:victim's hidden secret, guess it (READONLY), or fire the board event (A9). */
function fieldErrors(spec: SchemaSpec): Arm[] {
  const c = spec.compat;
  const recheck = pick([
    "UPDATE board:victim SET x = 1",
    "UPDATE board SET x = 1",
    "UPDATE board:victim MERGE { x: 1 } RETURN NONE",
    c === 2 ? "UPSERT board:victim SET x = 1" : "UPDATE board:victim SET x = 2",
    "INSERT INTO board { id: board:victim } ON DUPLICATE KEY UPDATE x = 1",
  ]);
  // the first run's secret, exactly: a READONLY check answering by equality would tell the runs apart
  const guess = pick([`'${marker(spec, "board")}'`, "'guess'"]).map((g) => `UPDATE board:victim SET secret = ${g} RETURN NONE`);
  const probe = pick(["UPDATE board:eve SET probe = 1 RETURN NONE", `CREATE board SET owner = ${ATTACKER}, probe = 1`, "UPDATE board SET probe = 1 RETURN VALUE id"]);
  return [
    { tag: "field-errors", weight: 2, sql: recheck, bare: true },
    { tag: "field-errors", weight: 1, sql: guess, bare: true },
    { tag: "field-errors", weight: 1, sql: probe, bare: true },
  ];
}

function graph(): Arm[] {
  const from = pick(["$auth", "user", VICTIM, ATTACKER]);
  const dir = pick(["->", "<-"]);
  const edgeCond = leak(pick(DOC_SOURCES.knows)).map((v) => `${v} = 1`);
  const conditioned = fc
    .tuple(dir, edgeCond, from, pick(["select", "value", "return", "node"]))
    .map(([d, c, f, form]) => {
      const step = `${d}(knows WHERE ${c})`;
      if (form === "select") return `SELECT ${step} AS x FROM ${f}`;
      if (form === "value") return `SELECT VALUE ${step}${d}user FROM ${f}`;
      if (form === "node") return `SELECT ${step}${d}user.* AS x FROM ${f}`;
      return `RETURN ${f === "user" ? ATTACKER : f}${step}`;
    });
  const plain = fc
    .tuple(dir, from, pick(["knows.*", "knows.note", "knows->user.*", "knows->user.password", "knows<-user.*"]))
    .map(([d, f, rest]) => (f === "user" ? `SELECT ${d}${rest} AS x FROM user` : `RETURN ${f}${d}${rest.replace("->", d).replace("<-", d)}`));
  return [
    { tag: "graph-cond", weight: 4, sql: conditioned },
    { tag: "base", weight: 2, sql: plain },
  ];
}

function loops(compat: 1 | 2): Arm[] {
  const inner = fc.oneof(
    pick(["password", "email", "body", "ssn", "note", "*"]).map((f) => `UPDATE ${ATTACKER} SET note = <string> $r.${f}`),
    fc.constant(`CREATE doc SET owner = ${ATTACKER}, body = <string> $r`),
    fc.constant("THROW <string> $r"),
  );
  const forLoop = fc
    .tuple(pick(["(SELECT * FROM user)", "(SELECT * FROM doc)", "(SELECT * FROM knows)", `[${VICTIM}, doc:v1, profile:victim, knows:v]`, "(SELECT VALUE id FROM user)"]), inner)
    .map(([it, body]) => `FOR $r IN ${it} { ${body} }`);
  const closure = fc
    .tuple(leak(pick(["$r.password", "$r.*", "$r.body", "$r.ssn", "$r.note"])), pick([VICTIM, "doc:v1", "profile:victim", "knows:v"]))
    .map(([body, arg]) => `RETURN array::map([${arg}], |$r| ${body})`);
  return [
    { tag: "base", weight: 2, sql: forLoop },
    { tag: "base", weight: compat === 2 ? 1 : 0, sql: closure },
  ];
}

/** Protected names set by the client inside the query: LET, FOR and closure parameters (the shared vocabulary's). */
const protectedNames = (cls: NamedClass, compat: 1 | 2): Arm[] => protectedNameArms(cls, PROTECTED_NAMES[cls], compat, PARTIES, READS, READ_STATEMENTS);

function otherDatabases(): Arm[] {
  const where = pick(["USE DB other", "USE NS n DB other", "USE NS m", "USE NS m DB d"]);
  const what = pick(["RETURN $p", "RETURN fn::o()", "SELECT * FROM s", "INFO FOR DB", "UPDATE s SET v = 'x'"]);
  return [{ tag: "use-other", weight: 3, sql: fc.tuple(where, what).map(([u, w]) => `${u}; ${w}`) }];
}

/** The attacker granting itself the `admin` field its update permission denies. */
const ESCALATIONS = [
  "UPDATE $auth SET admin = true",
  `UPDATE ${ATTACKER} MERGE { admin: true }`,
  "UPDATE $auth CONTENT { name: 'eve', email: 'eve@x', password: 'eve-pw', admin: true }",
  `UPDATE ${ATTACKER} PATCH [{ op: 'add', path: '/admin', value: true }]`,
  `INSERT INTO user { id: ${ATTACKER}, name: 'eve', email: 'eve@x', password: 'eve-pw', admin: true } ON DUPLICATE KEY UPDATE admin = true`,
  "UPDATE user SET admin = true WHERE id = $auth.id",
  "FOR $u IN [$auth] { UPDATE $u SET admin = true }",
];

const DDL = [
  "DEFINE FIELD password ON user PERMISSIONS FULL; SELECT * FROM user",
  "DEFINE TABLE doc PERMISSIONS FULL; SELECT * FROM doc",
  "DEFINE PARAM $hidden VALUE 'x' PERMISSIONS FULL",
  "REMOVE PARAM hidden",
  "REMOVE TABLE doc",
  "INFO FOR DB",
  "INFO FOR TABLE user",
];

function queryStep(spec: SchemaSpec, open: ReadonlySet<IssueClass>): fc.Arbitrary<AttackStep> {
  const c = spec.compat;
  const arms: Arm[] = [
    ...select(),
    ...writes(c),
    ...fieldErrors(spec),
    ...graph(),
    ...loops(c),
    ...protectedNames("protected-vars", c),
    ...protectedNames("document-vars", c),
    ...protectedNames("param-shadow", c),
    ...otherDatabases(),
    { tag: "base" as const, weight: 1, sql: pick(DDL) },
    { tag: "field-update" as const, weight: 2, sql: fc.tuple(pick(ESCALATIONS), pick(READ_STATEMENTS)).map(([e, r]) => `${e}; ${r}`) },
  ].filter((a) => a.tag === "base" || !open.has(a.tag));
  const varNames = NAMED_CLASSES.filter((cls) => !open.has(cls)).flatMap((cls) => PROTECTED_NAMES[cls]);
  return sharedQueryStep(arms, "base", varNames, classOf, PARTIES);
}

const classOf = (name: string): Tag => classOfName(PROTECTED_NAMES, name);

function letStep(open: ReadonlySet<IssueClass>): fc.Arbitrary<AttackStep> | undefined {
  return sharedLetStep(NAMED_CLASSES.filter((cls) => !open.has(cls)).flatMap((cls) => PROTECTED_NAMES[cls]), classOf, PARTIES);
}

/** The RPC methods that read or write records, and `use`, aimed at the victim's records and other databases. */
function rpcStep(compat: 1 | 2, open: ReadonlySet<IssueClass>): fc.Arbitrary<AttackStep> {
  const victimId = pick(Object.values(VICTIM_IDS));
  const some = fc.oneof(victimId, pick(["'user'", "'doc'", "'profile'", "'knows'"]));
  const calls: [Tag, fc.Arbitrary<[string, string]>][] = [
    ["base", some.map((w) => ["select", `[${w}]`])],
    ["base", fc.tuple(pick(["update", "merge", ...(compat === 2 ? ["upsert"] : [])]), some).map(([m, w]) => [m, `[${w}, { note: 'x', x: 'x' }]`])],
    ["base", victimId.map((w) => ["patch", `[${w}, [{ op: 'replace', path: '/note', value: 'x' }], true]`])],
    ["field-update", pick(["update", "merge", ...(compat === 2 ? ["upsert"] : [])]).map((m) => [m, `[${ATTACKER}, { name: 'eve', email: 'eve@x', password: 'eve-pw', admin: true }]`])],
    ["base", some.map((w) => ["delete", `[${w}]`])],
    ["base", victimId.map((w) => ["create", `[${w}, { owner: ${ATTACKER} }]`])],
    ["index-error", fc.constant(["create", `['doc', { owner: ${ATTACKER}, title: 'v2' }]`])],
    ["insert-existing", pick(["user", "doc", "profile"] as const).map((t) => ["insert", `['${t}', { id: ${VICTIM_IDS[t]}, owner: ${ATTACKER} }]`])],
    ["insert-existing", fc.constant(["insert", "[NONE, [{ id: doc:v1, owner: user:eve }]]"])],
    ...(compat === 2 ? [["insert-existing", fc.constant(["insert_relation", `['knows', { id: knows:v, in: ${ATTACKER}, out: ${VICTIM} }]`])] as [Tag, fc.Arbitrary<[string, string]>]] : []),
    ["base", fc.constant(["relate", `[${ATTACKER}, 'knows', ${VICTIM}, { id: knows:v, note: 'x' }]`])],
    ["base", pick(["['fn::hidden']", `['fn::read', NONE, [${VICTIM}]]`, "['fn::read', NONE, [doc:v1]]"]).map((p) => ["run", p])],
    ["use-other", pick(["['n', 'other']", "['m', 'd']", "['m', NONE]", "[NONE, 'other']"]).map((p) => ["use", p])],
    // Becoming the victim without its password, or someone new: the session must never read as the victim.
    [
      "base",
      fc
        .tuple(pick(["signin", "signup"]), pick(["", ", password: 'wrong'", ", password: NONE", ", password: { }", ", email: 'x@x', password: 'x'"]), pick(["victim", "mallory"]))
        .map(([m, extra, name]) => [m, `[{ NS: 'n', DB: 'd', ${compat === 1 ? "SC" : "AC"}: 'account', name: '${name}'${extra} }]`]),
    ],
    // A signup field named like the DEFINE PARAM the SIGNUP clause reads.
    ["param-shadow", fc.constant(["signup", `[{ NS: 'n', DB: 'd', ${compat === 1 ? "SC" : "AC"}: 'account', name: 'mallory', email: 'x@x', password: 'x', default_admin: true }]`])],
    ["base", pick(["authenticate", "invalidate", "reset", "info"]).map((m) => [m, m === "authenticate" ? "['eyJhbGciOiJIUzUxMiJ9.e30.x']" : "[]"])],
  ];
  return fc.oneof(...calls.filter(([tag]) => tag === "base" || !open.has(tag)).map(([tag, a]) => a.map(([method, params]): AttackStep => ({ kind: "rpc", tag, method, params }))));
}

/** 1–6 attacker steps; an RPC `let` sets a session variable for the steps after it. */
export function attackSteps(spec: SchemaSpec, open: ReadonlySet<IssueClass>): fc.Arbitrary<AttackStep[]> {
  const q = queryStep(spec, open);
  const l = letStep(open);
  const step = fc.oneof({ weight: 10, arbitrary: q }, { weight: 2, arbitrary: rpcStep(spec.compat, open) }, ...(l ? [{ weight: 1, arbitrary: l }] : []));
  return fc.array(step, { minLength: 1, maxLength: 6 });
}
