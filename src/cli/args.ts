// CLI: command-line and environment parsing into typed options for `start`, `check`, `sql`, `is-ready`, `export` and
// `import`; `--help` anywhere (or `help COMMAND`) asks for that command's usage.

import { LocalError } from "../errors/index.js";
import { parseArgs } from "node:util";
import { durationToMillis, tryParseDuration } from "../value/duration.js";
import { Duration } from "../value/types.js";
import { CLIENT_IP_SOURCES, QUERY_GROUPS, defaultLimits, type ClientIpSource, type QueryGroup } from "../server/types.js";
import { parseStoreSpec } from "../store/kv/open.js";
import { COMMANDS, hintFor, type CommandName } from "./usage.js";
import { LimitsError, parseCount, parseWindow, type ThrottleLimits } from "../iam/throttle-limits.js";

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
  readonly banner: boolean;
  /** `--web-crt` / `--web-key`: PEM files; both or neither (HTTPS and WSS). */
  readonly tls: { readonly cert: string; readonly key: string } | undefined;
  /** CORS origins a browser may call from; `*` any. */
  readonly allowOrigin: readonly string[];
  /** Where `$session.ip` comes from (`--client-ip`). */
  readonly clientIp: ClientIpSource;
  readonly identificationHeaders: boolean;
  /** JWKS URLs may be fetched (`--deny-all` turns it off). */
  readonly allowNet: boolean;
  /** Groups that may not run SurrealQL text (`--deny-arbitrary-query`). */
  readonly denyArbitraryQuery: readonly QueryGroup[];
  /** Functions no query may call (`--deny-funcs`). */
  readonly denyFuncs: readonly string[];
  /** A limits file (`--limits`), read at start; its settings give way to `throttle`. */
  readonly limitsFile: string | undefined;
  /** Throttle settings from flags and environment (README "Throttling"). */
  readonly throttle: Partial<ThrottleLimits>;
}


export interface CheckOptions {
  readonly command: "check";
  readonly files: readonly string[];
  readonly compat: 1 | 2;
  /** What the files run in when they select none (`surreal import --ns --db`). */
  readonly ns?: string;
  readonly db?: string;
}

export interface SqlOptions {
  readonly command: "sql";
  readonly endpoint: string;
  readonly user: string | undefined;
  readonly pass: string | undefined;
  readonly token: string | undefined;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  /** Level of the system user signing in, as `surreal sql --auth-level` (default root). */
  readonly authLevel: "root" | "namespace" | "database";
  /** A query to run instead of the interactive shell. */
  readonly query: string | undefined;
  /** Indented output; undefined: on a terminal. */
  readonly pretty: boolean | undefined;
  readonly json: boolean;
  /** A statement spans lines until `;`; undefined: when stdin is not a terminal. */
  readonly multi: boolean | undefined;
  readonly hideWelcome: boolean;
}

export interface IsReadyOptions {
  readonly command: "is-ready";
  readonly endpoint: string;
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
  /** `--token`: Bearer instead of Basic credentials. */
  readonly token?: string | undefined;
  /** export: where to write (stdout when absent or `-`); import: the file to send (`-` reads stdin). */
  readonly file: string | undefined;
}

export type CliOptions =
  | StartOptions
  | CheckOptions
  | SqlOptions
  | IsReadyOptions
  | TransferOptions
  | { readonly command: "version" }
  /** `topic`: the command whose usage is asked for (the overview without one). */
  | { readonly command: "help"; readonly topic: CommandName | undefined };

/**
 * A command's options from `parse`, or undefined after a usage mistake (ours or node's parseArgs'), written to stderr
 * as one line and the hint to the command's --help: the command then exits with code 2.
 */
export function optionsOrUsage<T>(command: string, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof UsageError) && (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") !== true) throw e;
    process.stderr.write(`surql-auth: ${(e as Error).message}\n${hintFor(command)}\n`);
    return undefined;
  }
}

/** A user mistake on the command line: one line and a hint to the command's --help, exit code 2. */
export class UsageError extends LocalError {
  constructor(
    message: string,
    /** The command being parsed, for the hint. */
    public command?: CommandName,
  ) {
    super("Usage", message);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function parseCompat(text: string | undefined): 1 | 2 {
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
const list = (v: string) => v.split(",").map((x) => x.trim()).filter(Boolean);

/** `surreal`'s long names for our flags: rewritten to ours before parsing (`--import-file=x` too). */
const ALIASES: Readonly<Record<string, string>> = {
  "--import-file": "--import",
  "--username": "--user",
  "--password": "--pass",
  "--conn": "--endpoint",
  "--namespace": "--ns",
  "--database": "--db",
};

function unalias(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  return argv.map((a, i) => {
    if (end >= 0 && i >= end) return a;
    const eq = a.indexOf("=");
    const name = eq < 0 ? a : a.slice(0, eq);
    const to = ALIASES[name];
    return to === undefined ? a : to + (eq < 0 ? "" : a.slice(eq));
  });
}

/** A specific capability flag (or its variable) wins over --allow-all / --deny-all; allow and deny of one conflict. */
function capability(allow: boolean | undefined, deny: boolean | undefined, name: string): boolean | undefined {
  if (allow && deny) throw new UsageError(`--allow-${name} and --deny-${name} cannot be used together`);
  return allow ? true : deny ? false : undefined;
}

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
      "deny-guests": { type: "boolean" },
      "allow-all": { type: "boolean", short: "A" },
      "deny-all": { type: "boolean", short: "D" },
      "deny-arbitrary-query": { type: "string" },
      "deny-funcs": { type: "string" },
      "no-banner": { type: "boolean" },
      "web-crt": { type: "string" },
      "web-key": { type: "string" },
      "allow-origin": { type: "string" },
      "client-ip": { type: "string" },
      "no-identification-headers": { type: "boolean" },
      "v1-token-duration": { type: "string" },
      "query-timeout": { type: "string" },
      "transaction-timeout": { type: "string" },
      "max-connections-per-ip": { type: "string" },
      limits: { type: "string" },
      "signin-max-failures": { type: "string" },
      "signin-window": { type: "string" },
      "ip-max-attempts": { type: "string" },
      "ip-window": { type: "string" },
      "no-throttle": { type: "boolean" },
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
  const allowAll = capability(values["allow-all"] ?? truthy(env.SURQL_AUTH_ALLOW_ALL), values["deny-all"] ?? truthy(env.SURQL_AUTH_DENY_ALL), "all");
  const guestFlags = capability(values["allow-guests"], values["deny-guests"], "guests");
  const guests = guestFlags ?? capability(truthy(env.SURQL_AUTH_ALLOW_GUESTS), truthy(env.SURQL_AUTH_DENY_GUESTS), "guests");
  const crt = values["web-crt"] ?? env.SURQL_AUTH_WEB_CRT;
  const key = values["web-key"] ?? env.SURQL_AUTH_WEB_KEY;
  if ((crt === undefined) !== (key === undefined)) throw new UsageError("--web-crt and --web-key go together");
  const clientIpText = values["client-ip"] ?? env.SURQL_AUTH_CLIENT_IP ?? "socket";
  const clientIp = CLIENT_IP_SOURCES.find((c) => c.toLowerCase() === clientIpText.toLowerCase());
  if (clientIp === undefined) throw new UsageError(`--client-ip must be one of ${CLIENT_IP_SOURCES.join(", ")}, not '${clientIpText}'`);
  const denied = list(values["deny-arbitrary-query"] ?? env.SURQL_AUTH_DENY_ARBITRARY_QUERY ?? "");
  for (const g of denied) {
    if (!(QUERY_GROUPS as readonly string[]).includes(g)) throw new UsageError(`--deny-arbitrary-query takes ${QUERY_GROUPS.join(", ")}, not '${g}'`);
  }
  const envImportFiles = env.SURQL_AUTH_IMPORT_FILE ? list(env.SURQL_AUTH_IMPORT_FILE) : [];
  return {
    command: "start",
    host,
    port,
    user,
    pass,
    imports: values.import ?? (envImports.length > 0 ? envImports : envImportFiles),
    compat: parseCompat(values.compat ?? env.SURQL_AUTH_COMPAT),
    log,
    logFormat,
    auditFile: values["audit-file"] ?? (env.SURQL_AUTH_AUDIT_FILE || undefined),
    logDenials: values["log-denials"] ?? truthy(env.SURQL_AUTH_LOG_DENIALS),
    unauthenticated: values.unauthenticated ?? truthy(env.SURQL_AUTH_UNAUTHENTICATED),
    allowGuests: guests ?? allowAll ?? false,
    v1TokenSeconds,
    queryTimeoutMs: timeoutMs("query-timeout", values["query-timeout"] ?? env.SURQL_AUTH_QUERY_TIMEOUT ?? "10s"),
    transactionTimeoutMs: timeoutMs("transaction-timeout", values["transaction-timeout"] ?? env.SURQL_AUTH_TRANSACTION_TIMEOUT ?? "0"),
    maxConnectionsPerIp,
    storage,
    banner: !(values["no-banner"] ?? truthy(env.SURQL_AUTH_NO_BANNER)),
    tls: crt !== undefined && key !== undefined ? { cert: crt, key } : undefined,
    allowOrigin: list(values["allow-origin"] ?? env.SURQL_AUTH_ALLOW_ORIGIN ?? "*"),
    clientIp,
    identificationHeaders: !(values["no-identification-headers"] ?? truthy(env.SURQL_AUTH_NO_IDENTIFICATION_HEADERS)),
    allowNet: allowAll !== false,
    denyArbitraryQuery: denied as QueryGroup[],
    denyFuncs: list(values["deny-funcs"] ?? env.SURQL_AUTH_DENY_FUNCS ?? ""),
    limitsFile: values.limits ?? (env.SURQL_AUTH_LIMITS || undefined),
    throttle: throttleFlags(values, env),
  };
}

/** Throttle settings given as flags or environment variables (flags first); only those given. */
function throttleFlags(values: Record<string, string | boolean | string[] | undefined>, env: Env): Partial<ThrottleLimits> {
  const given = (flag: string, variable: string): string | undefined => (values[flag] as string | undefined) ?? env[variable];
  const out: { -readonly [K in keyof ThrottleLimits]?: ThrottleLimits[K] } = {};
  try {
    const failures = given("signin-max-failures", "SURQL_AUTH_SIGNIN_MAX_FAILURES");
    if (failures !== undefined) out.signinMaxFailures = parseCount(failures, "--signin-max-failures");
    const window = given("signin-window", "SURQL_AUTH_SIGNIN_WINDOW");
    if (window !== undefined) out.signinWindowMs = parseWindow(window, "--signin-window");
    const attempts = given("ip-max-attempts", "SURQL_AUTH_IP_MAX_ATTEMPTS");
    if (attempts !== undefined) out.ipMaxAttempts = parseCount(attempts, "--ip-max-attempts");
    const ipWindow = given("ip-window", "SURQL_AUTH_IP_WINDOW");
    if (ipWindow !== undefined) out.ipWindowMs = parseWindow(ipWindow, "--ip-window");
  } catch (e) {
    if (e instanceof LimitsError) throw new UsageError(e.message);
    throw e;
  }
  if (values["no-throttle"] === true || truthy(env.SURQL_AUTH_NO_THROTTLE)) out.enabled = false;
  return out;
}

function parseCheck(argv: string[], env: Env): CheckOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { compat: { type: "string" }, ns: { type: "string" }, db: { type: "string" } },
  });
  if (positionals.length === 0) throw new UsageError("check needs at least one FILE");
  if (values.db !== undefined && values.ns === undefined) throw new UsageError("--db needs --ns");
  const use = { ...(values.ns !== undefined ? { ns: values.ns } : {}), ...(values.db !== undefined ? { db: values.db } : {}) };
  return { command: "check", files: positionals, compat: parseCompat(values.compat ?? env.SURQL_AUTH_COMPAT), ...use };
}

/** Flags every client command (`sql`, `export`, `import`) shares: where the server is and who signs in. */
export const CONNECTION_FLAGS = {
  endpoint: { type: "string", short: "e" },
  user: { type: "string", short: "u" },
  pass: { type: "string", short: "p" },
  token: { type: "string" },
  ns: { type: "string" },
  db: { type: "string" },
  "auth-level": { type: "string" },
} as const;

export interface ConnectionValues {
  endpoint?: string;
  user?: string;
  pass?: string;
  token?: string;
  ns?: string;
  db?: string;
  "auth-level"?: string;
}

const AUTH_LEVELS = ["root", "namespace", "database"];

function endpointOf(values: { endpoint?: string }, env: Env, schemes: RegExp, schemesText: string): string {
  const endpoint = values.endpoint ?? env.SURQL_AUTH_ENDPOINT ?? "http://127.0.0.1:8000";
  if (!schemes.test(endpoint)) throw new UsageError(`--endpoint must be an ${schemesText} URL, not '${endpoint}'`);
  return endpoint;
}

export function connection(values: ConnectionValues, env: Env, schemes: RegExp, schemesText: string) {
  // surreal's short forms of the level: ns / db
  const level = ({ ns: "namespace", db: "database" } as Record<string, string>)[values["auth-level"] ?? ""] ?? values["auth-level"] ?? "root";
  if (!AUTH_LEVELS.includes(level)) throw new UsageError(`--auth-level must be root, namespace or database, not '${level}'`);
  const authLevel = level as SqlOptions["authLevel"];
  const endpoint = endpointOf(values, env, schemes, schemesText);
  const user = values.user ?? env.SURQL_AUTH_USER;
  const pass = values.pass ?? env.SURQL_AUTH_PASS;
  const token = values.token ?? env.SURQL_AUTH_TOKEN;
  if (token !== undefined && values.user !== undefined) throw new UsageError("--token and --user cannot be used together");
  return { endpoint, user: token === undefined ? user : undefined, pass: token === undefined ? pass : undefined, token, ns: values.ns, db: values.db, authLevel };
}

function parseSql(argv: string[], env: Env): SqlOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      ...CONNECTION_FLAGS,
      query: { type: "string", short: "q" },
      pretty: { type: "boolean" },
      json: { type: "boolean" },
      multi: { type: "boolean" },
      "hide-welcome": { type: "boolean" },
    },
  });
  if (positionals.length > 0) throw new UsageError(`sql takes no arguments, not '${positionals.join(" ")}' (use --query TEXT)`);
  return {
    command: "sql",
    ...connection(values, env, /^(https?|wss?):\/\//, "http(s):// or ws(s)://"),
    query: values.query,
    pretty: values.pretty,
    json: values.json ?? false,
    multi: values.multi,
    hideWelcome: values["hide-welcome"] ?? false,
  };
}

function parseIsReady(argv: string[], env: Env): IsReadyOptions {
  const { values } = parseArgs({ args: argv, strict: true, options: { endpoint: CONNECTION_FLAGS.endpoint } });
  return { command: "is-ready", endpoint: endpointOf(values, env, /^(https?|wss?):\/\//, "http(s):// or ws(s)://") };
}

function parseTransfer(command: "export" | "import", argv: string[], env: Env): TransferOptions {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: CONNECTION_FLAGS });
  const conn = connection(values, env, /^https?:\/\//, "http(s)://");
  if (conn.ns === undefined || conn.db === undefined) throw new UsageError(`${command} needs --ns and --db`);
  if (conn.token === undefined && (conn.user === undefined) !== (conn.pass === undefined)) throw new UsageError("--user and --pass go together");
  if (positionals.length > 1) throw new UsageError(`${command} takes one FILE`);
  if (command === "import" && positionals.length === 0) throw new UsageError("import needs a FILE");
  return { command, ...conn, ns: conn.ns, db: conn.db, file: positionals[0] };
}

const PARSERS: Record<Exclude<CommandName, "help" | "version">, (argv: string[], env: Env) => CliOptions> = {
  start: parseStart,
  check: parseCheck,
  sql: parseSql,
  "is-ready": parseIsReady,
  export: (argv, env) => parseTransfer("export", argv, env),
  import: (argv, env) => parseTransfer("import", argv, env),
};

function commandNamed(name: string): CommandName | undefined {
  if (name === "isready") return "is-ready";
  return (COMMANDS as readonly string[]).includes(name) ? (name as CommandName) : undefined;
}

/** The first sentence of node:util parseArgs' messages ("Unknown option '--x'. To specify …"). */
function firstSentence(message: string): string {
  const end = message.indexOf(". ");
  return end < 0 ? message : message.slice(0, end);
}

/** Parses `argv` (without node and script) and the environment; throws UsageError on mistakes. */
export function parseCli(argv: readonly string[], env: Env = process.env): CliOptions {
  const [word, ...rest] = argv;
  if (word === undefined || word === "--help" || word === "-h") return { command: "help", topic: undefined };
  if (word === "--version" || word === "-V") return { command: "version" };
  const command = commandNamed(word);
  if (command === undefined) throw new UsageError(`unknown command '${word}'`);
  const end = rest.indexOf("--");
  if ((end < 0 ? rest : rest.slice(0, end)).some((a) => a === "--help" || a === "-h")) return { command: "help", topic: command };
  if (command === "help") {
    if (rest.length === 0) return { command: "help", topic: undefined };
    const topic = commandNamed(rest[0]!);
    if (topic === undefined || rest.length > 1) throw new UsageError(`no help for '${rest.join(" ")}'`, "help");
    return { command: "help", topic };
  }
  if (command === "version") return { command: "version" };
  try {
    return PARSERS[command](unalias(rest), env);
  } catch (e) {
    if (e instanceof UsageError) {
      e.command ??= command;
      throw e;
    }
    // node:util parseArgs errors (unknown option, missing value) are usage errors too.
    throw new UsageError(firstSentence((e as Error).message), command);
  }
}
