// CLI: a small leveled logger to stderr; structured extras are printed with secret-looking fields redacted.

import type { LogLevel } from "./args.js";
import type { Logger } from "../server/types.js";

const ORDER: Record<LogLevel, number> = { none: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };
const SECRET = /pass|secret|token|key|hash|code|authorization|refresh/i;

/** Replaces the values of secret-looking keys, at any depth, so a credential never reaches a log line. */
export function redact(v: unknown, depth = 0): unknown {
  if (depth > 6 || v === null || typeof v !== "object") return typeof v === "bigint" ? v.toString() : v;
  if (v instanceof Error) return { name: v.name, message: v.message, ...("code" in v ? { code: (v as { code: unknown }).code } : {}) };
  if (Array.isArray(v)) return v.map((x) => redact(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET.test(k) ? "[REDACTED]" : redact(x, depth + 1)]));
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Logger {
  const at = ORDER[level];
  const log = (lvl: Exclude<LogLevel, "none">) => (msg: string, extra?: unknown) => {
    if (ORDER[lvl] > at) return;
    const tail = extra === undefined ? "" : ` ${JSON.stringify(redact(extra))}`;
    write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} surql_auth: ${msg}${tail}`);
  };
  return { error: log("error"), warn: log("warn"), info: log("info"), debug: log("debug") };
}
