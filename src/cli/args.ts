// CLI: command-line and environment parsing into typed options for `start`, `check`, `sql`, `export` and `import`.

import { LocalError } from "../errors/index.js";
import { parseArgs } from "node:util";
import { durationToMillis, tryParseDuration } from "../value/duration.js";
import { Duration } from "../value/types.js";
import { defaultLimits } from "../server/types.js";
import { parseStoreSpec } from "../store/kv/open.js";

export type LogLevel = "none" | "error" | "warn" | "info" | "debug" | "trace";
const LOG_LEVELS: readonly LogLevel[] = ["none", "error", "warn", "info", "debug", "trace"];
export type LogFormat = "text" | "json";

export interface StartOptions {
  readonly command: "start";
  readonly host: string;
  readonly port: number;
  readonly user: string | undefined;
  readonly pass: string | undefined;
  readonly imports: readonly string[];
  readonly compat: 1 | 2;
  readonly log: LogLevel;
  /** Log lines as text or JSON objects (`--log-format`). */
  readonly logFormat: LogFormat;
  /** Append audit events as JSON lines to this file (`--audit-file`). */
  readonly auditFile: string | undefined;
  /** Audit every record, field or write a PERMISSIONS clause refuses (`--log-denials`). */
  readonly logDenials: boolean;
  readonly unauthenticated: boolean;
  readonly allowGuests: boolean;
  /** v1 only: default life of tokens issued to scope users, seconds (the seed's 24 h). */
  readonly v1TokenSeconds: number;
  /** Time limit of one client query, ms (`--query-timeout`; 0: none). */
  readonly queryTimeoutMs: number;
  /** Time limit of one transaction (a statement or a BEGIN … COMMIT block), ms (`--transaction-timeout`; 0: none). */
  readonly transactionTimeoutMs: number;
  /** Open connections (HTTP and WebSocket) from one IP address (`--max-connections-per-ip`; 0: no limit). */
  readonly maxConnectionsPerIp: number;
  /** Where data lives: `memory`, `file:PATH` (or a bare PATH), `postgres://USER@HOST:PORT/DB` (parseStoreSpec). */
  readonly storage: string;
}

export interface CheckOptions {
  readonly command: "check";
  readonly files: readonly string[];
  readonly compat: 1 | 2;
}

export interface SqlOptions {
  readonly command: "sql";
  readonly endpoint: string;
  readonly user: string | undefined;
  readonly pass: string | undefined;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  /** Level of the system user signing in, as `surreal sql --auth-level` (default root). */
  readonly authLevel: "root" | "namespace" | "database";
  /** A query to run instead of the interactive shell. */
  readonly query: string | undefined;
}

/** `export` / `import` against a running server over HTTP (GET /export, POST /import). */
export interface TransferOptions {
  readonly command: "export" | "import";
  readonly endpoint: string;
  readonly user: string | undefined;
  readonly pass: string | undefined;
  readonly ns: string;
  readonly db: string;
  readonly authLevel: "root" | "namespace" | "database";
  /** export: where to write (stdout when absent or `-`); import: the file to send (`-` reads stdin). */
  readonly file: string | undefined;
}

export type CliOptions = StartOptions | CheckOptions | SqlOptions | TransferOptions | { readonly command: "help" | "version" };

/** A user mistake on the command line: printed with the usage, exit code 2. */
export class UsageError extends LocalError {
  constructor(message: string) {
    super("Usage", message);
  }
}

export const USAGE = `usage: surql-auth <command> [options]

commands:
  start [options] [PATH]      run the HTTP + WebSocket server on the store PATH names  SURQL_AUTH_PATH
                              PATH: memory (the default: lost at exit), file:PATH or a bare PATH (one SQLite file,
                              created if absent), postgres://USER[:PASS]@HOST:PORT/DB (several servers may share it)
      -b, --bind HOST:PORT      listen address (default 127.0.0.1:8000)         SURQL_AUTH_BIND
      -u, --user NAME           root user created at start if no root user exists  SURQL_AUTH_USER
      -p, --pass PASSWORD       its password                                     SURQL_AUTH_PASS
      -i, --import FILE         load a .surql file at start (repeatable, in order)  SURQL_AUTH_IMPORT (comma-separated)
      --compat 1|2              SurrealDB 1.x (scopes) or 2.x (record access) behaviour (default 2)  SURQL_AUTH_COMPAT
      -l, --log LEVEL           none|error|warn|info|debug|trace (default info)  SURQL_AUTH_LOG
      --log-format text|json    log lines as text or one JSON object each (default text)  SURQL_AUTH_LOG_FORMAT
      --audit-file PATH         also append every audit event to PATH as a JSON line  SURQL_AUTH_AUDIT_FILE
      --log-denials             audit each record, field or write PERMISSIONS refuse  SURQL_AUTH_LOG_DENIALS
      --unauthenticated         disable authentication: anonymous sessions may do everything  SURQL_AUTH_UNAUTHENTICATED
      --allow-guests            let anonymous sessions run queries (subject to PERMISSIONS)  SURQL_AUTH_ALLOW_GUESTS
      --v1-token-duration SECS  compat 1: default token life of scope users (default 86400)  SURQL_AUTH_V1_TOKEN_DURATION
      --query-timeout DURATION  time limit of one query, e.g. 500ms, 30s; 0 for none (default 10s)  SURQL_AUTH_QUERY_TIMEOUT
      --transaction-timeout DURATION  time limit of one transaction (a statement, a BEGIN … COMMIT block); 0 for none (default)  SURQL_AUTH_TRANSACTION_TIMEOUT
      --max-connections-per-ip N  open connections from one IP address; more get 429; 0 for no limit (default 128)  SURQL_AUTH_MAX_CONNECTIONS_PER_IP
  check [--compat 1|2] FILE...  parse and validate schema files; every error as file:line:column
  sql --endpoint URL [--user U --pass P [--auth-level root|namespace|database]] [--ns NS --db DB] [--query TEXT]
                              SurrealQL shell against a running server (or one query with --query)
  export --endpoint URL --user U --pass P --ns NS --db DB [--auth-level root|namespace|database] [FILE]
                              write the database as SurrealQL to FILE (default stdout)
  import --endpoint URL --user U --pass P --ns NS --db DB [--auth-level root|namespace|database] FILE
                              run a SurrealQL file (e.g. an export) on the database
  version                     print the version
  help                        this text`;

type Env = Readonly<Record<string, string | undefined>>;

function parseCompat(text: string | undefined): 1 | 2 {
  if (text === undefined || text === "2") return 2;
  if (text === "1") return 1;
  throw new UsageError(`--compat must be 1 or 2, not '${text}'`);
}

function parseBind(text: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--bind must look like HOST:PORT (e.g. 127.0.0.1:8000), not '${text}'`);
  return { host: m[1] ?? (m[2] || "127.0.0.1"), port };
}

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v);

function parseStart(argv: string[], env: Env): StartOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      bind: { type: "string", short: "b" },
      user: { type: "string", short: "u" },
      pass: { type: "string", short: "p" },
      import: { type: "string", short: "i", multiple: true },
      compat: { type: "string" },
      log: { type: "string", short: "l" },
      "log-format": { type: "string" },
      "audit-file": { type: "string" },
      "log-denials": { type: "boolean" },
      unauthenticated: { type: "boolean" },
      "allow-guests": { type: "boolean" },
      "v1-token-duration": { type: "string" },
      "query-timeout": { type: "string" },
      "transaction-timeout": { type: "string" },
      "max-connections-per-ip": { type: "string" },
    },
  });
  const { host, port } = parseBind(values.bind ?? env.SURQL_AUTH_BIND ?? "127.0.0.1:8000");
  const log = (values.log ?? env.SURQL_AUTH_LOG ?? "info") as LogLevel;
  if (!LOG_LEVELS.includes(log)) throw new UsageError(`--log must be one of ${LOG_LEVELS.join(", ")}, not '${log}'`);
  const logFormat = values["log-format"] ?? env.SURQL_AUTH_LOG_FORMAT ?? "text";
  if (logFormat !== "text" && logFormat !== "json") throw new UsageError(`--log-format must be text or json, not '${logFormat}'`);
  const user = values.user ?? env.SURQL_AUTH_USER;
  const pass = values.pass ?? env.SURQL_AUTH_PASS;
  if ((user === undefined) !== (pass === undefined)) throw new UsageError("--user and --pass go together");
  const envImports = env.SURQL_AUTH_IMPORT ? env.SURQL_AUTH_IMPORT.split(",").filter(Boolean) : [];
  if (positionals.length > 1) throw new UsageError(`start takes one PATH, not '${positionals.join(" ")}'`);
  // an empty SURQL_AUTH_PATH is no path: memory, as `surreal start` with an empty SURREAL_PATH
  const storage = positionals[0] ?? (env.SURQL_AUTH_PATH || "memory");
  try {
    parseStoreSpec(storage);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v1Text = values["v1-token-duration"] ?? env.SURQL_AUTH_V1_TOKEN_DURATION ?? "86400";
  const v1TokenSeconds = Number(v1Text);
  if (!Number.isInteger(v1TokenSeconds) || v1TokenSeconds <= 0) {
    throw new UsageError(`--v1-token-duration must be a positive number of seconds, not '${v1Text}'`);
  }
  const timeoutMs = (flag: string, text: string): number => {
    const timeout = text === "0" ? new Duration(0n) : tryParseDuration(text);
    if (!timeout) throw new UsageError(`--${flag} must be a duration such as 500ms or 30s (0 for none), not '${text}'`);
    return durationToMillis(timeout);
  };
  const perIpText = values["max-connections-per-ip"] ?? env.SURQL_AUTH_MAX_CONNECTIONS_PER_IP ?? String(defaultLimits.maxConnectionsPerIp);
  const maxConnectionsPerIp = Number(perIpText);
  if (!/^\d+$/.test(perIpText) || !Number.isSafeInteger(maxConnectionsPerIp)) {
    throw new UsageError(`--max-connections-per-ip must be a number of connections (0 for no limit), not '${perIpText}'`);
  }
  return {
    command: "start",
    host,
    port,
    user,
    pass,
    imports: values.import ?? envImports,
    compat: parseCompat(values.compat ?? env.SURQL_AUTH_COMPAT),
    log,
    logFormat,
    auditFile: values["audit-file"] ?? (env.SURQL_AUTH_AUDIT_FILE || undefined),
    logDenials: values["log-denials"] ?? truthy(env.SURQL_AUTH_LOG_DENIALS),
    unauthenticated: values.unauthenticated ?? truthy(env.SURQL_AUTH_UNAUTHENTICATED),
    allowGuests: values["allow-guests"] ?? truthy(env.SURQL_AUTH_ALLOW_GUESTS),
    v1TokenSeconds,
    queryTimeoutMs: timeoutMs("query-timeout", values["query-timeout"] ?? env.SURQL_AUTH_QUERY_TIMEOUT ?? "10s"),
    transactionTimeoutMs: timeoutMs("transaction-timeout", values["transaction-timeout"] ?? env.SURQL_AUTH_TRANSACTION_TIMEOUT ?? "0"),
    maxConnectionsPerIp,
    storage,
  };
}

function parseCheck(argv: string[], env: Env): CheckOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { compat: { type: "string" } },
  });
  if (positionals.length === 0) throw new UsageError("check needs at least one FILE");
  return { command: "check", files: positionals, compat: parseCompat(values.compat ?? env.SURQL_AUTH_COMPAT) };
}

/** Flags every client command (`sql`, `export`, `import`) shares: where the server is and who signs in. */
export const CONNECTION_FLAGS = {
  endpoint: { type: "string", short: "e" },
  user: { type: "string", short: "u" },
  pass: { type: "string", short: "p" },
  ns: { type: "string" },
  db: { type: "string" },
  "auth-level": { type: "string" },
} as const;

interface ConnectionValues {
  endpoint?: string;
  user?: string;
  pass?: string;
  ns?: string;
  db?: string;
  "auth-level"?: string;
}

function connection(values: ConnectionValues, env: Env, schemes: RegExp, schemesText: string) {
  const authLevel = (values["auth-level"] ?? "root") as SqlOptions["authLevel"];
  if (!["root", "namespace", "database"].includes(authLevel)) throw new UsageError(`--auth-level must be root, namespace or database, not '${authLevel}'`);
  const endpoint = values.endpoint ?? env.SURQL_AUTH_ENDPOINT ?? "http://127.0.0.1:8000";
  if (!schemes.test(endpoint)) throw new UsageError(`--endpoint must be an ${schemesText} URL, not '${endpoint}'`);
  return { endpoint, user: values.user ?? env.SURQL_AUTH_USER, pass: values.pass ?? env.SURQL_AUTH_PASS, ns: values.ns, db: values.db, authLevel };
}

function parseSql(argv: string[], env: Env): SqlOptions {
  const { values } = parseArgs({ args: argv, strict: true, options: { ...CONNECTION_FLAGS, query: { type: "string", short: "q" } } });
  return { command: "sql", ...connection(values, env, /^(https?|wss?):\/\//, "http(s):// or ws(s)://"), query: values.query };
}

function parseTransfer(command: "export" | "import", argv: string[], env: Env): TransferOptions {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: CONNECTION_FLAGS });
  const conn = connection(values, env, /^https?:\/\//, "http(s)://");
  if (conn.ns === undefined || conn.db === undefined) throw new UsageError(`${command} needs --ns and --db`);
  if ((conn.user === undefined) !== (conn.pass === undefined)) throw new UsageError("--user and --pass go together");
  if (positionals.length > 1) throw new UsageError(`${command} takes one FILE`);
  if (command === "import" && positionals.length === 0) throw new UsageError("import needs a FILE");
  return { command, ...conn, ns: conn.ns, db: conn.db, file: positionals[0] };
}

/** Parses `argv` (without node and script) and the environment; throws UsageError on mistakes. */
export function parseCli(argv: readonly string[], env: Env = process.env): CliOptions {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "start":
        return parseStart(rest, env);
      case "check":
        return parseCheck(rest, env);
      case "sql":
        return parseSql(rest, env);
      case "export":
      case "import":
        return parseTransfer(command, rest, env);
      case "version":
      case "--version":
      case "-V":
        return { command: "version" };
      case undefined:
      case "help":
      case "--help":
      case "-h":
        return { command: "help" };
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    // node:util parseArgs errors (unknown option, missing value) are usage errors too.
    throw new UsageError((e as Error).message);
  }
}
