// CLI: a small leveled logger to stderr, as text or JSON lines; structured extras are printed with secret-looking fields redacted.

import type { LogFormat, LogLevel } from "./args.js";
import type { Logger } from "../server/types.js";

const ORDER: Record<LogLevel, number> = { none: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };
const SECRET = /pass|secret|token|key|hash|code|authorization|refresh|credential/i;
const TARGET = "surql_auth";

/** Replaces the values of secret-looking keys, at any depth, so a credential never reaches a log line. */
export function redact(v: unknown, depth = 0): unknown {
  if (depth > 6 || v === null || typeof v !== "object") return typeof v === "bigint" ? v.toString() : v;
  if (v instanceof Error) return { name: v.name, message: v.message, ...("code" in v ? { code: (v as { code: unknown }).code } : {}) };
  if (Array.isArray(v)) return v.map((x) => redact(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET.test(k) ? "[REDACTED]" : redact(x, depth + 1)]));
}

type Level = Exclude<LogLevel, "none">;

/** One line of text: `<time> <LEVEL> surql_auth: <message> <extra as JSON>` (SurrealDB's text layout). */
function textLine(level: Level, msg: string, extra: unknown): string {
  const tail = extra === undefined ? "" : ` ${JSON.stringify(redact(extra))}`;
  return `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${TARGET}: ${msg}${tail}`;
}

/** One JSON object per line, shaped as tracing's JSON layer (SurrealDB `--log-format json`): the extra's keys in `fields`. */
function jsonLine(level: Level, msg: string, extra: unknown): string {
  const shown = redact(extra);
  const fields = shown !== null && typeof shown === "object" && !Array.isArray(shown) && !(extra instanceof Error) ? shown : shown === undefined ? {} : { detail: shown };
  return JSON.stringify({ timestamp: new Date().toISOString(), level: level.toUpperCase(), fields: Object.assign({ message: msg }, fields, { message: msg }), target: TARGET });
}

export interface LoggerOptions {
  readonly format?: LogFormat;
  /** Where each line goes (default: stderr). */
  readonly write?: (line: string) => void;
}

export function createLogger(level: LogLevel, opts: LoggerOptions = {}): Logger {
  const at = ORDER[level];
  const write = opts.write ?? ((l: string) => process.stderr.write(`${l}\n`));
  const line = opts.format === "json" ? jsonLine : textLine;
  const log = (lvl: Level) => (msg: string, extra?: unknown) => {
    if (ORDER[lvl] > at) return;
    write(line(lvl, msg, extra));
  };
  return { error: log("error"), warn: log("warn"), info: log("info"), debug: log("debug") };
}
