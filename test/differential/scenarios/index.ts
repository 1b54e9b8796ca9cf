// Differential scenarios: every list, with the SurrealDB versions it applies to.

import type { Step } from "../harness/steps.js";
import type { SurrealVersion } from "../harness/surreal.js";
import { definitions } from "./definitions.js";
import { levelsAndRoles, signinDispatch } from "./levels.js";
import { permissions } from "./permissions.js";
import { accessClausesV2, recordUsers } from "./records.js";
import { seedV1, seedV2 } from "./seed.js";
import { recordExpiry, sessionContents } from "./sessions.js";
import { defineTokens, issuedTokensV2, jwtAccessV2 } from "./tokens.js";
import { expiryV2, systemUsers, tokensV2 } from "./users.js";

export interface Scenario {
  readonly name: string;
  readonly version: SurrealVersion;
  readonly steps: readonly Step[];
}

export const scenarios: readonly Scenario[] = [
  { name: "seed typical set-up (scope)", version: "1.5.4", steps: seedV1 },
  { name: "seed typical set-up (record access)", version: "2.6.0", steps: seedV2 },
  { name: "system users", version: "1.5.4", steps: systemUsers },
  { name: "system users", version: "2.6.0", steps: systemUsers },
  { name: "tokens", version: "2.6.0", steps: tokensV2 },
  { name: "session expiry", version: "2.6.0", steps: expiryV2 },
  { name: "system users: every level and role, RBAC", version: "1.5.4", steps: levelsAndRoles(1) },
  { name: "system users: every level and role, RBAC", version: "2.6.0", steps: levelsAndRoles(2) },
  { name: "signin dispatch and credentials", version: "1.5.4", steps: signinDispatch(1) },
  { name: "signin dispatch and credentials", version: "2.6.0", steps: signinDispatch(2) },
  { name: "scope users: signup, signin, clause outcomes", version: "1.5.4", steps: recordUsers(1) },
  { name: "record users: signup, signin, clause outcomes", version: "2.6.0", steps: recordUsers(2) },
  { name: "record access AUTHENTICATE and JWT access signin", version: "2.6.0", steps: accessClausesV2 },
  { name: "session contents, invalidate, info", version: "1.5.4", steps: sessionContents(1) },
  { name: "session contents, invalidate, reset, info", version: "2.6.0", steps: sessionContents(2) },
  { name: "scope session expiry and revival", version: "1.5.4", steps: recordExpiry(1) },
  { name: "record session expiry and revival", version: "2.6.0", steps: recordExpiry(2) },
  { name: "JWT access tokens: algorithms, claims, roles, refusals", version: "2.6.0", steps: jwtAccessV2 },
  { name: "SurrealDB-issued tokens re-used", version: "2.6.0", steps: issuedTokensV2 },
  { name: "DEFINE TOKEN definitions", version: "1.5.4", steps: defineTokens(1) },
  { name: "DEFINE TOKEN definitions (read as DEFINE ACCESS)", version: "2.6.0", steps: defineTokens(2) },
  { name: "table and field permissions (scope user)", version: "1.5.4", steps: permissions(1) },
  { name: "table and field permissions (record user)", version: "2.6.0", steps: permissions(2) },
  { name: "user / scope definitions, redefinition, odd hashes", version: "1.5.4", steps: definitions(1) },
  { name: "user / access definitions, redefinition, odd hashes", version: "2.6.0", steps: definitions(2) },
];
