// What a builtin function sees of the engine: the session, compat level, clock and a few async hooks exec/ supplies.

import type { RecordId, Value } from "../../value/types.js";
import type { Budget } from "../budget.js";
import type { Clock, Compat, Session } from "../session.js";

export interface FunctionContext {
  readonly session: Session;
  readonly compat: Compat;
  readonly clock: Clock;
  /** The calling query's time limit (sleep() wakes at its deadline); none when absent. */
  readonly budget?: Budget;
  /** The call is in what the client wrote, not in a schema body (its password hashes pass the client gate). */
  readonly clientWritten?: boolean;
  /** Read a record for `record::exists` (v2) / existence checks; resolves NONE when it does not exist. */
  fetchRecord?(rid: RecordId): Promise<Value>;
  /** Call a closure value (v2 `|$x| ...`) for array::map / filter / find / any / all with a closure argument. */
  invoke?(closure: unknown, args: Value[]): Promise<Value>;
  /** The value of the field a type::field string names, in the current document (NONE outside one). */
  fieldValue?(text: string): Promise<Value>;
  /** Is `v` a closure the engine can `invoke`? Needed to type-check closure arguments. */
  isClosure?(v: unknown): boolean;
}
