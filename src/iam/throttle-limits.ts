// The throttle's limits: defaults, and the `throttle` section of a limits file (`--limits FILE`) read into them.

import { durationToMillis, tryParseDuration } from "../value/duration.js";

export interface ThrottleLimits {
  /** False: nothing is counted or refused (tests, or a proxy in front that limits already). */
  readonly enabled: boolean;
  /** Failed signins of one identity within `signinWindowMs` that lock it until the oldest leaves the window; 0: no lock. */
  readonly signinMaxFailures: number;
  readonly signinWindowMs: number;
  /** From this many failures of one identity on, each further attempt waits `backoffBaseMs` × 2^(failures − this). 0: none. */
  readonly backoffAfter: number;
  readonly backoffBaseMs: number;
  /** Signin / signup attempts (and failed Basic checks and authenticate calls) of one client address per `ipWindowMs`; 0: no limit. */
  readonly ipMaxAttempts: number;
  readonly ipWindowMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = {
  enabled: true,
  signinMaxFailures: 10,
  signinWindowMs: 15 * 60_000,
  backoffAfter: 3,
  backoffBaseMs: 1000,
  ipMaxAttempts: 60,
  ipWindowMs: 60_000,
};

/** A mistake in a limits file or flag: the message names the setting. */
export class LimitsError extends Error {}

/** A count: a non-negative integer (number, or digits as text). */
export function parseCount(value: unknown, name: string): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw new LimitsError(`${name} must be a whole number (0 for none), not '${String(value)}'`);
  return n;
}

/** A duration: SurrealQL text such as `90s` or `15m`, or a number of milliseconds; more than zero. */
export function parseWindow(value: unknown, name: string): number {
  const d = typeof value === "string" ? tryParseDuration(value) : undefined;
  const ms = typeof value === "number" ? value : d ? durationToMillis(d) : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new LimitsError(`${name} must be a duration such as 60s or 15m, not '${String(value)}'`);
  return ms;
}

function section(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new LimitsError(`${name} must be an object`);
  return value as Record<string, unknown>;
}

function known(obj: Record<string, unknown>, name: string, keys: readonly string[]): void {
  for (const k of Object.keys(obj)) if (!keys.includes(k)) throw new LimitsError(`unknown setting ${name}.${k} (known: ${keys.join(", ")})`);
}

/**
 * The `throttle` section of a limits file (README "Throttling"):
 * `{ "throttle": { "enabled": true, "signin": { "maxFailures", "window", "backoffAfter", "backoffBase" }, "ip": { "maxAttempts", "window" } } }`.
 * Only the settings present are returned; unknown keys are refused so a typo does not silently keep a default.
 */
export function throttleLimitsFromFile(file: unknown): Partial<ThrottleLimits> {
  const root = section(file, "the limits file");
  const t = section(root.throttle, "throttle");
  known(t, "throttle", ["enabled", "signin", "ip"]);
  const signin = section(t.signin, "throttle.signin");
  known(signin, "throttle.signin", ["maxFailures", "window", "backoffAfter", "backoffBase"]);
  const ip = section(t.ip, "throttle.ip");
  known(ip, "throttle.ip", ["maxAttempts", "window"]);
  if (t.enabled !== undefined && typeof t.enabled !== "boolean") throw new LimitsError("throttle.enabled must be true or false");
  const out: { -readonly [K in keyof ThrottleLimits]?: ThrottleLimits[K] } = {};
  if (t.enabled !== undefined) out.enabled = t.enabled as boolean;
  if (signin.maxFailures !== undefined) out.signinMaxFailures = parseCount(signin.maxFailures, "throttle.signin.maxFailures");
  if (signin.window !== undefined) out.signinWindowMs = parseWindow(signin.window, "throttle.signin.window");
  if (signin.backoffAfter !== undefined) out.backoffAfter = parseCount(signin.backoffAfter, "throttle.signin.backoffAfter");
  if (signin.backoffBase !== undefined) out.backoffBaseMs = parseWindow(signin.backoffBase, "throttle.signin.backoffBase");
  if (ip.maxAttempts !== undefined) out.ipMaxAttempts = parseCount(ip.maxAttempts, "throttle.ip.maxAttempts");
  if (ip.window !== undefined) out.ipWindowMs = parseWindow(ip.window, "throttle.ip.window");
  return out;
}
