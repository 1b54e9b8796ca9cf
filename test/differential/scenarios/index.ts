// Differential scenarios: every list, with the SurrealDB versions it applies to.

import type { Step } from "../harness/steps.js";
import type { SurrealVersion } from "../harness/surreal.js";
import { seedV1, seedV2 } from "./seed.js";
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
];
