// duration:: builtins: whole units of a Duration, and Durations from whole units (u64 semantics).

import { Duration } from "../../value/types.js";
import { fn, type BuiltinTable } from "./registry.js";

const UNIT = {
  nanos: 1n,
  micros: 1_000n,
  millis: 1_000_000n,
  secs: 1_000_000_000n,
  mins: 60_000_000_000n,
  hours: 3_600_000_000_000n,
  days: 86_400_000_000_000n,
  weeks: 604_800_000_000_000n,
  years: 31_536_000_000_000_000n,
} as const;

const parts = (Object.keys(UNIT) as (keyof typeof UNIT)[]).flatMap((unit) => [
  [`duration::${unit}`, fn(["duration"], ([d]) => (d as Duration).nanos / UNIT[unit])] as const,
  // Negative inputs wrap as u64, as in SurrealDB (from::secs(-3) is ~584942417355y).
  [`duration::from::${unit}`, fn(["u64"], ([n]) => new Duration(BigInt.asUintN(64, n as bigint) * UNIT[unit]))] as const,
]);

export const durationFunctions: BuiltinTable = Object.fromEntries(parts.filter(([name]) => name !== "duration::from::years"));

