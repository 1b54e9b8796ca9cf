// Noninterference: the generated schema (tables, field and array-element permissions, indexes, params, functions,
// a second database and namespace) and the victim's protected data, rendered as SurrealQL for either compat.
//
// Every permission the generator picks denies the attacker (user:eve) the victim's (user:victim) protected
// values; only the form of the condition varies ($auth, $this, $session, $access, $value …). Every protected
// value is a marker string `SECRET_<slot>_<nonce>`, so a leak is a substring of what the attacker sees.

import fc from "fast-check";
import type { Compat } from "../../../src/exec/session.js";
import { marker as sharedMarker } from "../../../src/testing/invariant.js";
import type { IssueClass } from "./classes.js";

export const VICTIM = "user:victim";
export const ATTACKER = "user:eve";

export interface SchemaSpec {
  readonly compat: Compat;
  /** Makes the markers unguessable by the attack generator. */
  readonly nonce: string;
  /** Set by the runner for the second run of a case (other secrets, same everything else). */
  readonly twin?: boolean;
  readonly userSchemafull: boolean;
  /** select / update / delete condition on `user` rows. */
  readonly userRow: string;
  /** select permission of `user.password`: `NONE` or `WHERE …`. */
  readonly passwordField: string;
  readonly emailIndex: boolean;
  /** `profile` is readable by everyone (`FULL`); `ssn` and `emails[*].secret` are not. */
  readonly profileRow: string;
  readonly ssnField: string;
  /** select permission of `board.secret`; board is FULL for everyone, so anyone may overwrite the hidden value. */
  readonly boardField: string;
  /** An array-element field of profile (a key of HIDDEN_PATHS) and its select permission. */
  readonly arrayField: { readonly path: HiddenPath; readonly perm: string } | undefined;
  /** select permission of the nested `info.secret` on profile (`info` itself is public). */
  readonly nestedField: string | undefined;
  readonly docRow: string;
  readonly docOwnerIndex: boolean;
  readonly docBodyIndex: boolean;
  /** A unique index on doc.title: its error must not name the victim's hidden record (whose id is a marker). */
  readonly titleUnique: boolean;
  /** Indexes over hidden values: profile.ssn, board.secret (UNIQUE), user.password, the nested and array fields (A2). */
  readonly hiddenIndexes: boolean;
  /** board.secret redefined after the data exists (schema drift), so that the stored hidden value fails it (A9). */
  readonly boardDrift: BoardDrift | undefined;
  /** An event on board (owner rights) reading profile:victim.ssn when a write sets `probe = 1`: its cast, or a typed field it writes (A9). */
  readonly boardEvent: "cast" | "field" | undefined;
  readonly edgeRow: string;
  readonly paramPerm: string;
  /** Permission of the `$gate` param (false) that rules read. */
  readonly gatePerm: string;
  readonly fnPerm: string;
}

/** Clauses board.secret gets after the data exists: each fails on the stored marker in both runs of a case. */
export const BOARD_DRIFT = {
  type: "TYPE int",
  assert: "ASSERT string::len($value) > 100",
  value: "VALUE <int> $value",
  readonly: "READONLY",
} as const;
type BoardDrift = keyof typeof BOARD_DRIFT;

/** Array-element field paths on profile: the array field holding them, and the stored array around a value. */
const HIDDEN_PATHS = {
  "emails[*].secret": { field: "emails", wrap: (v: string) => `[{ addr: 'a@x', secret: ${v} }]` },
  "emails.*.secret": { field: "emails", wrap: (v: string) => `[{ addr: 'a@x', secret: ${v} }]` },
  "codes[*]": { field: "codes", wrap: (v: string) => `[${v}]` },
  "grid[*][*]": { field: "grid", wrap: (v: string) => `[[${v}]]` },
  "first[0].secret": { field: "first", wrap: (v: string) => `[{ secret: ${v} }]` },
} as const;
type HiddenPath = keyof typeof HIDDEN_PATHS;

/**
 * The victim's value in a slot; the twin run (`twin: true`) stores other secrets (see the shared `marker`).
 */
export const marker = (s: SchemaSpec, slot: string): string => sharedMarker(s.nonce, slot, s.twin);

/** The compat's name for the session's access method variable and `$session` fields. */
export const accessVar = (c: Compat): string => (c === 1 ? "$scope" : "$access");
const sessionAc = (c: Compat): string => (c === 1 ? "$session.sc" : "$session.ac");
const sessionRd = (c: Compat): string => (c === 1 ? "$session.sd" : "$session.rd");

/** Protective conditions on a row whose owner is `col` (`id` for user rows). Functions of the compat. */
function ownerConditions(col: string): ((c: Compat) => string)[] {
  return [
    () => `${col} = $auth.id`,
    () => `${col} = $auth`,
    () => `$auth.id = ${col}`,
    () => `$this.${col} = $auth.id`,
    (c) => `${col} = ${sessionRd(c)}`,
    (c) => `${accessVar(c)} = 'admin' OR ${col} = $auth.id`,
    (c) => `${sessionAc(c)} = 'admin' OR ${col} = $auth.id`,
    () => `$token.admin = true OR ${col} = $auth.id`,
    // `admin` is a field of the attacker's own record that it may not update (SIGNUP sets it from $default_admin).
    () => `$auth.admin = true OR ${col} = $auth.id`,
    // `$gate` is a DEFINE PARAM (false) the client must not shadow.
    () => `$gate = true OR ${col} = $auth.id`,
  ];
}

const condition = (col: string, c: Compat): fc.Arbitrary<string> => fc.constantFrom(...ownerConditions(col)).map((f) => f(c));

function fieldPermission(c: Compat, owner: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant("NONE"),
    condition(owner, c).map((w) => `WHERE ${w}`),
    fc.constant("WHERE $value = 'public'"),
  );
}

const definitionPermission = (c: Compat): fc.Arbitrary<string> =>
  fc.constantFrom("NONE", `WHERE $auth.id = ${VICTIM}`, `WHERE ${accessVar(c)} = 'admin'`, `WHERE $auth = ${VICTIM}`);

export function schemaSpec(open: ReadonlySet<IssueClass>): fc.Arbitrary<SchemaSpec> {
  const indexes = open.has("pushdown") ? fc.constant(false) : fc.constantFrom(true, true, false);
  return fc.constantFrom<Compat>(1, 2).chain((compat) =>
    fc.record({
      compat: fc.constant(compat),
      nonce: fc.integer({ min: 36 ** 5, max: 36 ** 6 - 1 }).map((n) => n.toString(36)),
      userSchemafull: fc.boolean(),
      userRow: condition("id", compat),
      passwordField: fieldPermission(compat, "id"),
      emailIndex: indexes,
      // While v1-projections is open, compat 1 hides the victim's profile by its row as well.
      profileRow: fc.constant(compat === 1 && open.has("v1-projections") ? "WHERE owner = $auth.id" : "FULL"),
      ssnField: fieldPermission(compat, "owner"),
      boardField: fieldPermission(compat, "owner"),
      arrayField: open.has("array-fields")
        ? fc.constant(undefined)
        : fc.option(fc.record({ path: fc.constantFrom(...(Object.keys(HIDDEN_PATHS) as HiddenPath[])), perm: fieldPermission(compat, "owner") }), { nil: undefined, freq: 4 }),
      nestedField: open.has("array-fields") ? fc.constant(undefined) : fc.option(fieldPermission(compat, "owner"), { nil: undefined, freq: 2 }),
      docRow: condition("owner", compat),
      docOwnerIndex: indexes,
      docBodyIndex: indexes,
      titleUnique: open.has("index-error") ? fc.constant(false) : fc.boolean(),
      hiddenIndexes: open.has("hidden-index") ? fc.constant(false) : fc.constantFrom(true, true, false),
      boardDrift: open.has("field-errors") ? fc.constant(undefined) : fc.option(fc.constantFrom(...(Object.keys(BOARD_DRIFT) as BoardDrift[])), { nil: undefined, freq: 3 }),
      boardEvent: open.has("field-errors") ? fc.constant(undefined) : fc.option(fc.constantFrom("cast" as const, "field" as const), { nil: undefined, freq: 3 }),
      edgeRow: condition("in", compat),
      paramPerm: definitionPermission(compat),
      gatePerm: fc.constantFrom("NONE", "FULL"),
      fnPerm: definitionPermission(compat),
    }),
  );
}

function accessDefinition(c: Compat): string {
  const signup = "SIGNUP (CREATE type::thing('user', $name) SET name = $name, email = $email, password = $password, admin = $default_admin)";
  const signin = "SIGNIN (SELECT * FROM type::thing('user', $name) WHERE password = $password)";
  return c === 1 ? `DEFINE SCOPE account SESSION 1h ${signup} ${signin};` : `DEFINE ACCESS account ON DATABASE TYPE RECORD ${signup} ${signin};`;
}

/** Indexes whose keys are values the attacker may not select: a WHERE answered from them must not see those keys. */
function hiddenIndexes(s: SchemaSpec): string[] {
  return [
    "DEFINE INDEX ssn ON profile FIELDS ssn;",
    "DEFINE INDEX secret ON board FIELDS secret UNIQUE;",
    "DEFINE INDEX password ON user FIELDS password;",
    ...(s.arrayField ? [`DEFINE INDEX arr ON profile FIELDS ${HIDDEN_PATHS[s.arrayField.path].field};`] : []),
    ...(s.nestedField ? ["DEFINE INDEX info ON profile FIELDS info;", "DEFINE INDEX info_secret ON profile FIELDS info.secret;"] : []),
  ];
}

/** The event on board that reads the victim's ssn with the owner's rights (and the PERMISSIONS NONE table it writes). */
function boardEvent(s: SchemaSpec): string[] {
  const read = "(SELECT VALUE ssn FROM ONLY profile:victim)";
  if (s.boardEvent === "cast") return [`DEFINE EVENT probe ON board WHEN $after.probe = 1 THEN { RETURN <int> ${read} };`];
  if (s.boardEvent === "field") {
    return ["DEFINE TABLE ledger SCHEMALESS PERMISSIONS NONE;", "DEFINE FIELD amount ON ledger TYPE int;", `DEFINE EVENT probe ON board WHEN $after.probe = 1 THEN { CREATE ledger SET amount = ${read} };`];
  }
  return [];
}

/** The schema of NS n DB d, run as root. */
export function schemaText(s: SchemaSpec): string {
  const own = (w: string): string => `FOR select, update, delete WHERE ${w} FOR create WHERE ${w.replaceAll(/\$this\./g, "")}`;
  return [
    `DEFINE TABLE user ${s.userSchemafull ? "SCHEMAFULL" : "SCHEMALESS"} PERMISSIONS FOR select, update, delete WHERE ${s.userRow} FOR create NONE;`,
    "DEFINE FIELD name ON user TYPE string;",
    "DEFINE FIELD email ON user TYPE string;",
    `DEFINE FIELD password ON user TYPE string PERMISSIONS FOR select ${s.passwordField};`,
    "DEFINE FIELD note ON user TYPE option<string>;",
    "DEFINE FIELD admin ON user TYPE option<bool> PERMISSIONS FOR select FULL FOR create, update NONE;",
    ...(s.emailIndex ? ["DEFINE INDEX email ON user FIELDS email UNIQUE;"] : []),
    `DEFINE TABLE profile SCHEMALESS PERMISSIONS FOR select ${s.profileRow} FOR create, update, delete WHERE owner = $auth.id;`,
    `DEFINE FIELD ssn ON profile PERMISSIONS FOR select ${s.ssnField};`,
    ...(s.arrayField
      ? [`DEFINE FIELD ${HIDDEN_PATHS[s.arrayField.path].field} ON profile TYPE option<array>;`, `DEFINE FIELD ${s.arrayField.path} ON profile TYPE string PERMISSIONS FOR select ${s.arrayField.perm};`]
      : []),
    ...(s.nestedField ? ["DEFINE FIELD info ON profile TYPE option<object>;", `DEFINE FIELD info.secret ON profile TYPE string PERMISSIONS FOR select ${s.nestedField};`] : []),
    "DEFINE TABLE board SCHEMALESS PERMISSIONS FULL;",
    `DEFINE FIELD secret ON board PERMISSIONS FOR select ${s.boardField};`,
    ...(s.hiddenIndexes ? hiddenIndexes(s) : []),
    ...boardEvent(s),
    `DEFINE TABLE doc SCHEMALESS PERMISSIONS ${own(s.docRow)};`,
    ...(s.docOwnerIndex ? ["DEFINE INDEX owner ON doc FIELDS owner;"] : []),
    ...(s.docBodyIndex ? ["DEFINE INDEX body ON doc FIELDS body;"] : []),
    ...(s.titleUnique ? ["DEFINE INDEX title ON doc FIELDS title UNIQUE;"] : []),
    `DEFINE TABLE knows SCHEMALESS PERMISSIONS ${own(s.edgeRow)};`,
    `DEFINE PARAM $gate VALUE false PERMISSIONS ${s.gatePerm};`,
    "DEFINE PARAM $default_admin VALUE false PERMISSIONS NONE;",
    `DEFINE PARAM $hidden VALUE '${marker(s, "param")}' PERMISSIONS ${s.paramPerm};`,
    `DEFINE FUNCTION fn::hidden() { RETURN '${marker(s, "fn")}' } PERMISSIONS ${s.fnPerm};`,
    "DEFINE FUNCTION fn::read($r: any) { RETURN $r.*; } PERMISSIONS FULL;",
    // A function anyone may call that calls the hidden function and reads the hidden param: those keep their permissions.
    "DEFINE FUNCTION fn::wrap() { RETURN [fn::hidden(), $hidden]; } PERMISSIONS FULL;",
    "DEFINE FUNCTION fn::peek($u: record<user>) { RETURN [$u.password, (SELECT * FROM $u)]; } PERMISSIONS FULL;",
    accessDefinition(s.compat),
  ].join("\n");
}

/** The victim's and the attacker's data (run as root after both signed up), and what lives in other databases. */
export function dataText(s: SchemaSpec): string {
  const m = (slot: string): string => `'${marker(s, slot)}'`;
  const hidden = (v: string): string => (s.arrayField ? `, ${HIDDEN_PATHS[s.arrayField.path].field} = ${HIDDEN_PATHS[s.arrayField.path].wrap(v)}` : "");
  return [
    `CREATE profile:victim SET owner = ${VICTIM}, display = 'victim', ssn = ${m("ssn")}${hidden(m("arr"))}${s.nestedField ? `, info = { public: 'v', secret: ${m("nested")} }` : ""};`,
    `CREATE profile:eve SET owner = ${ATTACKER}, display = 'eve', ssn = 'eve-ssn'${hidden("'eve-arr'")}${s.nestedField ? ", info = { public: 'e', secret: 'eve-nested' }" : ""};`,
    `CREATE board:victim SET owner = ${VICTIM}, secret = ${m("board")};`,
    `CREATE board:eve SET owner = ${ATTACKER}, secret = 'eve-board';`,
    `CREATE doc:v1 SET owner = ${VICTIM}, title = 'v1', body = ${m("body")};`,
    // A record whose very id is secret.
    `CREATE type::thing('doc', ${m("docid")}) SET owner = ${VICTIM}, title = 'v2', body = 'v2';`,
    // The attacker's own document links to the victim's records.
    `CREATE doc:e1 SET owner = ${ATTACKER}, title = 'e1', body = 'eve-body', link = ${VICTIM}, ref = doc:v1, links = [${VICTIM}, doc:v1];`,
    `RELATE ${VICTIM}->knows:v->${ATTACKER} SET note = ${m("edge")};`,
    `RELATE ${ATTACKER}->knows:e->${VICTIM} SET note = 'eve-note';`,
    ...(s.boardDrift ? [`DEFINE FIELD${s.compat === 2 ? " OVERWRITE" : ""} secret ON board ${BOARD_DRIFT[s.boardDrift]} PERMISSIONS FOR select ${s.boardField};`] : []),
    "USE NS n DB other;",
    `DEFINE PARAM $p VALUE ${m("otherparam")};`,
    `DEFINE FUNCTION fn::o() { RETURN ${m("otherfn")} };`,
    `DEFINE TABLE s SCHEMALESS PERMISSIONS FULL;`,
    `CREATE s:1 SET v = ${m("otherrow")};`,
    "USE NS m DB d;",
    `DEFINE PARAM $p VALUE ${m("otherns")};`,
    `DEFINE TABLE s SCHEMALESS PERMISSIONS FULL;`,
    `CREATE s:1 SET v = ${m("othernsrow")};`,
  ].join("\n");
}

/** Sign-up variables (the access method's `$name`, `$email`, `$password`). */
export function signupVars(s: SchemaSpec, who: "victim" | "eve"): Record<string, string> {
  const ac = s.compat === 1 ? "SC" : "AC";
  return who === "victim"
    ? { NS: "n", DB: "d", [ac]: "account", name: "victim", email: marker(s, "email"), password: marker(s, "pw") }
    : { NS: "n", DB: "d", [ac]: "account", name: "eve", email: "eve@x", password: "eve-pw" };
}

/** The victim's protected records, read as root before and after the attack. */
export const VICTIMS_OWN = `user, profile, doc, knows WHERE id = ${VICTIM} OR owner = ${VICTIM} OR in = ${VICTIM}`;
/** The victim's records anyone may write (board): their hidden field may change, but must never be seen. */
export const VICTIMS_WRITABLE = `board WHERE owner = ${VICTIM}`;
export const PROTECTED_RECORDS: readonly [ns: string, db: string, what: string][] = [
  ["n", "d", VICTIMS_OWN],
  ["n", "other", "s"],
  ["m", "d", "s"],
];
/** Every table the attacker could write to, read as root after the attack (no marker may appear outside the above). */
export const ALL_TABLES = "user, profile, doc, knows, board";
