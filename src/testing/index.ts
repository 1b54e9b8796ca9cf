// surql-auth/testing: fuzz your own permission rules with fast-check (README "Testing your rules").
export { assertPermissions, checkPermissions, SetupError, type CheckOptions, type CheckResult, type Counterexample, type Identity } from "./check.js";
export { attackerSteps, targetOf, type Target } from "./attacks.js";
export { recordOf, tableRecords, fieldValues, type RecordOptions } from "./records.js";
export { readSchema, type AccessShape, type FieldShape, type SchemaShape, type TableShape } from "./schema.js";
export { surqlValue, valueOfType, type ValueOptions } from "./values.js";
export { stepText, type AttackStep } from "./vocabulary.js";
