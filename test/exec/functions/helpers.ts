// Test helpers: a FunctionContext with a fixed clock, and a call shortcut per compat level.

import type { FunctionContext } from "../../../src/exec/functions/context.js";
import { callBuiltin } from "../../../src/exec/functions/index.js";
import { newSession, type Compat, type Session } from "../../../src/exec/session.js";
import type { Value } from "../../../src/value/types.js";

/** 2024-01-02T03:04:05.678Z */
export const FIXED_MS = Date.UTC(2024, 0, 2, 3, 4, 5, 678);

export function makeCtx(compat: Compat = 2, session: Partial<Session> = {}, extra: Partial<FunctionContext> = {}): FunctionContext {
  return { session: newSession(session), compat, clock: { now: () => FIXED_MS }, ...extra };
}

export function call(name: string, args: Value[], compat: Compat = 2, ctx?: FunctionContext): Promise<Value> {
  return callBuiltin(name, args, ctx ?? makeCtx(compat));
}

/** Resolve to the error message a call throws (fails the test if it does not throw). */
export async function errorOf(name: string, args: Value[], compat: Compat = 2, ctx?: FunctionContext): Promise<string> {
  try {
    await call(name, args, compat, ctx);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${name} did not throw`);
}
