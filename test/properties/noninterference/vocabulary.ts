// Noninterference: the attack vocabulary — what the attacker aims at (the victim's values, as record idioms,
// subqueries, params and functions, or as fields of the document being processed) and its targets. The names a client
// must not set and their forged values are the shared vocabulary's (src/testing/vocabulary.ts).

import { protectedNames, type Parties } from "../../../src/testing/vocabulary.js";
import { ATTACKER, VICTIM } from "./schema.js";

export type Table = "user" | "doc" | "profile" | "knows" | "board";
export const TABLES: readonly Table[] = ["user", "doc", "profile", "knows", "board"];

/** Values the attacker may address directly, each protected from it. */
export const GLOBAL_SOURCES = [
  `${VICTIM}.password`,
  `${VICTIM}.email`,
  `${VICTIM}.*`,
  "doc:v1.body",
  "doc:v1.*",
  "profile:victim.ssn",
  "profile:victim.emails[*].secret",
  "profile:victim.codes",
  "profile:victim.grid[0]",
  "profile:victim.first[0].secret",
  "profile:victim.*",
  "knows:v.note",
  `${VICTIM}->knows.note`,
  `${VICTIM}->knows.*`,
  "$hidden",
  "fn::hidden()",
  "fn::read(user:victim)",
  "fn::read(doc:v1)",
  `fn::peek(${VICTIM})`,
  "fn::wrap()",
  "profile:victim.info",
  "board:victim.secret",
  "(SELECT VALUE password FROM user)",
  "(SELECT * FROM user)",
  "(SELECT VALUE body FROM doc)",
  "(SELECT * FROM knows)",
  "(SELECT emails FROM profile)",
  "(SELECT * FROM user)[WHERE id = user:victim]",
  "(SELECT * FROM doc)[0]",
  `${VICTIM}->knows[WHERE note != NONE]`,
  `${VICTIM}<->knows.*`,
  "type::thing('user', 'victim').*",
  "(<record> 'doc:v1').body",
];

/** Values of the document being processed (the victim's row among them). */
export const DOC_SOURCES: Record<Table, readonly string[]> = {
  user: ["password", "email", "$this.password", "$this", "$before.password", "$parent.password", "$after.email"],
  doc: ["body", "$this.body", "$before.body", "$parent.body", "$after", "link.password", "link.*", "ref.body", "links.*", "links[*].body"],
  profile: ["ssn", "emails[*].secret", "emails", "codes", "codes[0]", "grid", "first[0]", "info", "info.secret", "$this.ssn", "$before"],
  knows: ["note", "$this.note", "in.password", "out.password", "out.*", "$before.note"],
  board: ["secret", "$this.secret", "$before.secret", "$before", "$parent.secret"],
};

/** Targets of writes and reads per table. */
export const TARGETS: Record<Table, readonly string[]> = {
  user: ["user", VICTIM, `${VICTIM}, ${ATTACKER}`, "(SELECT VALUE id FROM user)", "user:a..z"],
  doc: ["doc", "doc:v1", "doc:v1, doc:e1", "doc:a..z"],
  profile: ["profile", "profile:victim", "profile:a..z"],
  knows: ["knows", "knows:v", "knows:a..z"],
  board: ["board", "board:victim"],
};

/** A writable non-protected field per table (user is schemafull or not; `note` is optional there). */
export const FIELD: Record<Table, string> = { user: "note", doc: "x", profile: "x", knows: "x", board: "secret" };

/** The victim's ids, for INSERT / CREATE / RELATE of an existing record. */
export const VICTIM_IDS: Record<Table, string> = { user: VICTIM, doc: "doc:v1", profile: "profile:victim", knows: "knows:v", board: "board:victim" };

/** The protected names by class; the param-shadow class is the DEFINE PARAMs the schema's rules and SIGNUP read. */
export const PROTECTED_NAMES = protectedNames(["gate", "default_admin"]);
export const PARTIES: Parties = { victim: VICTIM, attacker: ATTACKER, ns: "n", db: "d" };

/** Reads whose result would carry a marker if permissions were bypassed. */
export const READS = [
  "(SELECT * FROM user)",
  "(SELECT * FROM doc)",
  "(SELECT * FROM profile)",
  "(SELECT * FROM knows)",
  "$hidden",
  "fn::hidden()",
  `${VICTIM}.*`,
  "(SELECT * FROM user WHERE email != '')",
];

export const READ_STATEMENTS = [
  "SELECT * FROM user",
  "SELECT * FROM doc",
  "SELECT * FROM profile",
  "SELECT * FROM knows",
  `SELECT * FROM ${VICTIM}`,
  "RETURN $hidden",
  "RETURN fn::hidden()",
  `SELECT * FROM user WHERE email = $auth.email`,
  "SELECT * FROM doc WHERE owner = $auth.id",
  "SELECT VALUE <-knows FROM $auth",
];
