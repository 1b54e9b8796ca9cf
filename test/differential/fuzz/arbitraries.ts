// Differential fuzzing: fast-check arbitraries for schemas (typed fields, asserts, defaults, unique indexes,
// table permissions), record users, writes and queries — rendered as RPC steps and as a .surql reproduction.

import fc from "fast-check";
import type { Step } from "../harness/steps.js";

export type FieldType = "string" | "int" | "bool" | "option<int>" | "option<string>" | "any" | "array<int>";

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly assert: string | undefined;
  readonly default: string | undefined;
}

export interface SchemaSpec {
  readonly schemafull: boolean;
  readonly fields: readonly FieldSpec[];
  readonly unique: string | undefined;
  readonly select: string;
  readonly create: string;
  readonly update: string;
  readonly delete: string;
  /** A field-level select permission on the first field. */
  readonly fieldSelect: string | undefined;
}

export interface FuzzCase {
  readonly schema: SchemaSpec;
  /** Writes as root: one CREATE per record, explicit ids t:1 … t:n. */
  readonly records: readonly string[];
  /** Record users to sign up (their ids are user:⟨name⟩). */
  readonly users: readonly string[];
  /** Queries run as root, then as the first record user. */
  readonly rootQueries: readonly string[];
  readonly userQueries: readonly string[];
}

const FIELD_NAMES = ["a", "b", "c"] as const;

const literal: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("NONE", "NULL", "true", "false", "0", "1", "-1", "3", "1.5", "'x'", "''", "'abc'", "[]", "[1, 2]", "{}", "user:alice", "user:bob"),
  fc.integer({ min: -5, max: 5 }).map(String),
  fc.stringMatching(/^[a-c]{0,3}$/).map((s) => `'${s}'`),
);

const assertFor: Record<FieldType, readonly string[]> = {
  string: ["string::len($value) < 3", "$value != ''"],
  int: ["$value >= 0", "$value < 3"],
  bool: ["$value = true"],
  "option<int>": ["$value = NONE OR $value > 0"],
  "option<string>": ["$value = NONE OR string::len($value) > 0"],
  any: ["$value != NULL"],
  "array<int>": ["array::len($value) < 3"],
};

const defaultFor: Record<FieldType, readonly string[]> = {
  string: ["'d'"],
  int: ["0", "7"],
  bool: ["false"],
  "option<int>": ["NONE", "1"],
  "option<string>": ["NONE"],
  any: ["'any'"],
  "array<int>": ["[]"],
};

const fieldType = fc.constantFrom<FieldType>("string", "int", "bool", "option<int>", "option<string>", "any", "array<int>");

function fieldSpec(name: string): fc.Arbitrary<FieldSpec> {
  return fieldType.chain((type) =>
    fc.record({
      name: fc.constant(name),
      type: fc.constant(type),
      assert: fc.option(fc.constantFrom(...assertFor[type]), { nil: undefined }),
      default: fc.option(fc.constantFrom(...defaultFor[type]), { nil: undefined }),
    }),
  );
}

const condition = (fields: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom("true", "false", "id = $auth.id", "owner = $auth.id", "owner = $auth", "$auth != NONE"),
    // SurrealDB 2.6 lexes `< -1` as the graph arrow `<-` (a parse error there; we accept it): write `< (-1)`.
    fc
      .tuple(fc.constantFrom(...fields), fc.constantFrom("=", "!=", ">", "<", "CONTAINS", "IN"), literal)
      .map(([f, op, v]) => `${f} ${op} ${op === "<" && v.startsWith("-") ? `(${v})` : v}`),
  );

const permission = (fields: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom("FULL", "NONE"), condition(fields).map((c) => `WHERE ${c}`));

export const schemaSpec: fc.Arbitrary<SchemaSpec> = fc
  .integer({ min: 1, max: 3 })
  .chain((n) => fc.tuple(...FIELD_NAMES.slice(0, n).map(fieldSpec)))
  .chain((fields) => {
    const names = [...fields.map((f) => f.name), "owner"];
    return fc.record({
      schemafull: fc.boolean(),
      fields: fc.constant(fields),
      unique: fc.option(fc.constantFrom(...fields.map((f) => f.name)), { nil: undefined }),
      select: permission(names),
      create: permission(names),
      update: permission(names),
      delete: permission(names),
      fieldSelect: fc.option(permission(names), { nil: undefined }),
    });
  });

function recordContent(fields: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(...[...fields, "owner"].map((f) => fc.option(literal.map((v) => `${f} = ${v}`), { nil: undefined })))
    .map((sets) => sets.filter((s): s is string => s !== undefined).join(", "));
}

function query(fields: readonly string[]): fc.Arbitrary<string> {
  const all = [...fields, "owner", "id"];
  return fc.oneof(
    condition(all).map((c) => `SELECT * FROM t WHERE ${c}`),
    fc.constant("SELECT * FROM t"),
    fc.constant("SELECT count() FROM t GROUP ALL"),
    fc.constantFrom(...fields).map((f) => `SELECT VALUE ${f} FROM t`),
    fc.tuple(fc.constantFrom(...fields), literal).map(([f, v]) => `UPDATE t SET ${f} = ${v} RETURN AFTER`),
    fc.tuple(fc.integer({ min: 1, max: 4 }), recordContent(fields)).map(([i, set]) => `CREATE t:${10 + i}${set ? ` SET ${set}` : ""}`),
    fc.integer({ min: 1, max: 4 }).map((i) => `DELETE t:${i} RETURN BEFORE`),
    fc.integer({ min: 1, max: 4 }).map((i) => `SELECT * FROM t:${i}`),
  );
}

export const fuzzCase: fc.Arbitrary<FuzzCase> = schemaSpec.chain((schema) => {
  const fields = schema.fields.map((f) => f.name);
  return fc.record({
    schema: fc.constant(schema),
    records: fc.array(recordContent(fields), { minLength: 0, maxLength: 4 }),
    users: fc.subarray(["alice", "bob"], { minLength: 1 }),
    rootQueries: fc.array(query(fields), { minLength: 1, maxLength: 3 }),
    userQueries: fc.array(query(fields), { minLength: 1, maxLength: 4 }),
  });
});

/**
 * The schema as SurrealQL, for both versions (record access in 2.x, a scope in 1.x). Field select permissions are
 * compared in 2.x only: in 1.x we hide fields from WHERE and projections where SurrealDB 1.5.4 does not (SECURITY.md),
 * which test/language/cases/field-select.surql and the noninterference property cover instead.
 */
export function schemaText(c: FuzzCase, version: 1 | 2): string {
  const s = c.schema;
  const lines = [
    `DEFINE TABLE t ${s.schemafull ? "SCHEMAFULL" : "SCHEMALESS"} PERMISSIONS FOR select ${s.select} FOR create ${s.create} FOR update ${s.update} FOR delete ${s.delete};`,
    ...s.fields.map(
      (f, i) =>
        `DEFINE FIELD ${f.name} ON t TYPE ${f.type}${f.default ? ` DEFAULT ${f.default}` : ""}${f.assert ? ` ASSERT ${f.assert}` : ""}${
          i === 0 && s.fieldSelect && version === 2 ? ` PERMISSIONS FOR select ${s.fieldSelect}` : ""
        };`,
    ),
    ...(s.schemafull ? ["DEFINE FIELD owner ON t TYPE any;"] : []),
    // no index on the field a select rule hides: a client's WHERE there scans where SurrealDB walks the hidden values
    // (SECURITY.md, attack pass 3 A2; test/language/cases/index-hidden.surql)
    ...(s.unique && !(version === 2 && s.fieldSelect !== undefined && s.fieldSelect !== "FULL" && s.unique === s.fields[0]?.name) ? [`DEFINE INDEX uq ON t FIELDS ${s.unique} UNIQUE;`] : []),
    "DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;",
    version === 1
      ? "DEFINE SCOPE acc SESSION 1h SIGNUP (CREATE type::thing('user', $name) SET name = $name) SIGNIN (SELECT * FROM type::thing('user', $name));"
      : "DEFINE ACCESS acc ON DATABASE TYPE RECORD SIGNUP (CREATE type::thing('user', $name) SET name = $name) SIGNIN (SELECT * FROM type::thing('user', $name));",
  ];
  return lines.join("\n");
}

/**
 * A record user's query as compared with SurrealDB: in 1.x a write's output is dropped (RETURN NONE), since 1.5.4 returns
 * records the client may write but not select and we do not (SECURITY.md); their effects still show in later SELECTs.
 */
function userQuery(q: string, version: 1 | 2): string {
  if (version === 2 || !/^(UPDATE|CREATE|DELETE) /.test(q)) return q;
  return `${q.replace(/ RETURN (AFTER|BEFORE)$/, "")} RETURN NONE`;
}

/** RPC steps for one case in its own namespace; every query is its own step so errors stay per statement. */
export function caseSteps(c: FuzzCase, version: 1 | 2, ns: string): Step[] {
  const who = version === 1 ? "SC" : "AC";
  const steps: Step[] = [
    // Cases share one connection: SurrealDB keeps a record user's $auth across a later root signin (we clear it,
    // a documented difference), so each case starts from an invalidated session.
    { method: "invalidate" },
    { method: "signin", params: [{ user: "root", pass: "root" }], skipCompare: "token differs per run" },
    { method: "use", params: [ns, "d"] },
    { method: "query", params: [schemaText(c, version)] },
    ...c.records.map((set, i): Step => ({ method: "query", params: [`CREATE t:${i + 1}${set ? ` SET ${set}` : ""}`] })),
    ...c.rootQueries.map((q): Step => ({ method: "query", params: [q] })),
    ...c.users.map((name): Step => ({ method: "signup", params: [{ NS: ns, DB: "d", [who]: "acc", name }], skipCompare: "token differs per run" })),
    { method: "signin", params: [{ NS: ns, DB: "d", [who]: "acc", name: c.users[0] }], skipCompare: "token differs per run" },
    ...c.userQueries.map((q): Step => ({ method: "query", params: [userQuery(q, version)] })),
  ];
  return steps;
}

/** A ready-to-paste reproduction: the schema, then each step as SurrealQL (sign-ins as comments). */
export function reproduction(c: FuzzCase, version: 1 | 2): string {
  const who = version === 1 ? "SC" : "AC";
  return [
    `-- surql-auth fuzz counterexample (SurrealDB ${version === 1 ? "1.5.4" : "2.6.0"}); run as root in a fresh namespace`,
    "USE NS fuzz DB d;",
    schemaText(c, version),
    ...c.records.map((set, i) => `CREATE t:${i + 1}${set ? ` SET ${set}` : ""};`),
    ...c.rootQueries.map((q) => `${q};`),
    ...c.users.map((name) => `-- signup {"NS":"fuzz","DB":"d","${who}":"acc","name":"${name}"}`),
    `-- signin {"NS":"fuzz","DB":"d","${who}":"acc","name":"${c.users[0]}"}, then as that record user:`,
    ...c.userQueries.map((q) => `${userQuery(q, version)};`),
  ].join("\n");
}
