// value/: own-key access to SurrealQL objects. An object's keys are its own JS properties only: a key it does not
// hold (`constructor`, `toString`, `__proto__`) is NONE, and `__proto__` is written as an ordinary key, never as the
// JS prototype. Every key read or write whose key comes from data goes through here.

import type { Value, ValueObject } from "./types.js";

/** Whether `o` holds `key` as one of its own keys. */
export function hasField(o: object, key: string): boolean {
  return Object.hasOwn(o, key);
}

/** The value `o` holds under `key`; NONE when it does not hold the key (never a prototype member). */
export function ownField(o: ValueObject, key: string): Value {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** `o[key] = value` as an own key, `__proto__` included (plain assignment would set the prototype). */
export function setField<T>(o: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}
