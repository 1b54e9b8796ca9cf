// duration:: builtins: whole units of a Duration, and Durations from whole units (u64 semantics).

import { queryError } from "../../errors/index.js";
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

const SECOND = 1_000_000_000n;

/** `n` whole units as a Duration (at most u64 seconds): 2.x refuses an overflow, 1.x wraps the seconds as u64. */
function fromUnits(unit: keyof typeof UNIT, input: bigint, compat: 1 | 2): Duration {
  // negative inputs wrap as u64, as in SurrealDB (from::secs(-3) is ~584942417355y)
  const n = BigInt.asUintN(64, input);
  if (UNIT[unit] <= SECOND) return new Duration(n * UNIT[unit]);
  const secs = n * (UNIT[unit] / SECOND);
  if (secs < 1n << 64n) return new Duration(secs * SECOND);
  if (compat === 1) return new Duration(BigInt.asUintN(64, secs) * SECOND);
  throw queryError("ArithmeticOverflow", `duration::from::${unit}(${n})`);
}

const parts = (Object.keys(UNIT) as (keyof typeof UNIT)[]).flatMap((unit) => [
  // whole units as SurrealDB's i64: a count past i64::MAX wraps (`duration::nanos(duration::max)` is -1)
  [`duration::${unit}`, fn(["duration"], ([d]) => BigInt.asIntN(64, (d as Duration).nanos / UNIT[unit]))] as const,
  [`duration::from::${unit}`, fn(["u64"], ([n], ctx) => fromUnits(unit, n as bigint, ctx.compat))] as const,
]);

export const durationFunctions: BuiltinTable = Object.fromEntries(parts.filter(([name]) => name !== "duration::from::years"));

