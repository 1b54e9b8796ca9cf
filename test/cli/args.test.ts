import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../../src/cli/args.js";

describe("parseCli", () => {
  it("start has SurrealDB-like defaults", () => {
    expect(parseCli(["start"], {})).toEqual({
      command: "start",
      host: "127.0.0.1",
      port: 8000,
      user: undefined,
      pass: undefined,
      imports: [],
      compat: 2,
      log: "info",
      logFormat: "text",
      auditFile: undefined,
      logDenials: false,
      unauthenticated: false,
      allowGuests: false,
      v1TokenSeconds: 86400,
      queryTimeoutMs: 10_000,
      transactionTimeoutMs: 0,
      maxConnectionsPerIp: 128,
      storage: "memory",
      banner: true,
      tls: undefined,
      allowOrigin: ["*"],
      clientIp: "socket",
      identificationHeaders: true,
      allowNet: true,
      denyArbitraryQuery: [],
      denyFuncs: [],
      limitsFile: undefined,
      throttle: {},
    });
  });

  it("--log-format, --audit-file and --log-denials, with their environment fallbacks", () => {
    expect(parseCli(["start", "--log-format", "json", "--audit-file", "/tmp/a.log", "--log-denials"], {})).toMatchObject({ logFormat: "json", auditFile: "/tmp/a.log", logDenials: true });
    expect(parseCli(["start"], { SURQL_AUTH_LOG_FORMAT: "json", SURQL_AUTH_AUDIT_FILE: "/tmp/b.log", SURQL_AUTH_LOG_DENIALS: "true" })).toMatchObject({
      logFormat: "json",
      auditFile: "/tmp/b.log",
      logDenials: true,
    });
    expect(() => parseCli(["start", "--log-format", "xml"], {})).toThrow(UsageError);
  });

  it("--help, -h and help COMMAND ask for that command's usage; help alone for the overview", () => {
    for (const argv of [["start", "--help"], ["start", "-h"], ["start", "--bind", "x", "--help"], ["help", "start"]]) {
      expect(parseCli(argv, {})).toEqual({ command: "help", topic: "start" });
    }
    expect(parseCli(["isready", "-h"], {})).toEqual({ command: "help", topic: "is-ready" });
    expect(parseCli(["help"], {})).toEqual({ command: "help", topic: undefined });
    expect(parseCli([], {})).toEqual({ command: "help", topic: undefined });
    // after "--" it is an argument, not a flag
    expect(() => parseCli(["check", "--", "--help"], {})).not.toThrow();
    expect(() => parseCli(["help", "frobnicate"], {})).toThrow(/no help for 'frobnicate'/);
  });

  it("a usage error names its command (for the hint) and is one line", () => {
    const error = (() => {
      try {
        parseCli(["sql", "--frobnicate"], {});
      } catch (e) {
        return e as UsageError;
      }
      throw new Error("no error");
    })();
    expect(error.command).toBe("sql");
    expect(error.message).toBe("Unknown option '--frobnicate'");
  });

  it("surreal's long names are aliases: --import-file, --username, --password, --conn, --namespace, --database", () => {
    expect(parseCli(["start", "--import-file", "a.surql", "-i", "b.surql", "--import-file=c.surql", "--username", "r", "--password", "p"], {})).toMatchObject({
      imports: ["a.surql", "b.surql", "c.surql"],
      user: "r",
      pass: "p",
    });
    expect(parseCli(["sql", "--conn", "ws://h:1", "--namespace", "n", "--database", "d", "--username", "u", "--password", "p", "--auth-level", "db"], {})).toMatchObject({
      endpoint: "ws://h:1",
      ns: "n",
      db: "d",
      user: "u",
      pass: "p",
      authLevel: "database",
    });
  });

  it("start: --no-banner, --web-crt/--web-key, --allow-origin, --client-ip, --no-identification-headers, and their variables", () => {
    expect(parseCli(["start", "--no-banner", "--web-crt", "c.pem", "--web-key", "k.pem", "--allow-origin", "https://a, https://b", "--client-ip", "x-real-ip", "--no-identification-headers"], {})).toMatchObject({
      banner: false,
      tls: { cert: "c.pem", key: "k.pem" },
      allowOrigin: ["https://a", "https://b"],
      clientIp: "X-Real-IP",
      identificationHeaders: false,
    });
    const env = { SURQL_AUTH_NO_BANNER: "1", SURQL_AUTH_WEB_CRT: "c", SURQL_AUTH_WEB_KEY: "k", SURQL_AUTH_ALLOW_ORIGIN: "https://x", SURQL_AUTH_CLIENT_IP: "CF-Connecting-IP", SURQL_AUTH_NO_IDENTIFICATION_HEADERS: "true", SURQL_AUTH_IMPORT_FILE: "s.surql" };
    expect(parseCli(["start"], env)).toMatchObject({ banner: false, tls: { cert: "c", key: "k" }, allowOrigin: ["https://x"], clientIp: "CF-Connecting-IP", identificationHeaders: false, imports: ["s.surql"] });
    expect(() => parseCli(["start", "--web-crt", "c.pem"], {})).toThrow(/--web-crt and --web-key go together/);
    expect(() => parseCli(["start", "--client-ip", "Forwarded"], {})).toThrow(/--client-ip must be one of none, socket, X-Forwarded-For/);
  });

  it("capabilities: a specific flag wins over --allow-all / --deny-all; allow and deny of one conflict", () => {
    expect(parseCli(["start", "--allow-all"], {})).toMatchObject({ allowGuests: true, allowNet: true });
    expect(parseCli(["start", "-D"], {})).toMatchObject({ allowGuests: false, allowNet: false });
    expect(parseCli(["start", "--deny-all", "--allow-guests"], {})).toMatchObject({ allowGuests: true, allowNet: false });
    expect(parseCli(["start", "--allow-all", "--deny-guests"], {})).toMatchObject({ allowGuests: false, allowNet: true });
    expect(parseCli(["start"], { SURQL_AUTH_ALLOW_ALL: "1", SURQL_AUTH_DENY_GUESTS: "1" })).toMatchObject({ allowGuests: false });
    expect(parseCli(["start", "--allow-guests"], { SURQL_AUTH_DENY_GUESTS: "1" })).toMatchObject({ allowGuests: true });
    expect(parseCli(["start", "--deny-arbitrary-query", "guest,record"], {})).toMatchObject({ denyArbitraryQuery: ["guest", "record"] });
    expect(parseCli(["start", "--deny-funcs", "crypto, fn::secret"], {})).toMatchObject({ denyFuncs: ["crypto", "fn::secret"] });
    expect(parseCli(["start"], { SURQL_AUTH_DENY_FUNCS: "*" })).toMatchObject({ denyFuncs: ["*"] });
    expect(parseCli(["start"], {})).toMatchObject({ denyFuncs: [] });
    expect(parseCli(["start"], { SURQL_AUTH_DENY_ARBITRARY_QUERY: "system" })).toMatchObject({ denyArbitraryQuery: ["system"] });
    expect(() => parseCli(["start", "--allow-all", "--deny-all"], {})).toThrow(/--allow-all and --deny-all/);
    expect(() => parseCli(["start", "--allow-guests", "--deny-guests"], {})).toThrow(/--allow-guests and --deny-guests/);
    expect(() => parseCli(["start", "--deny-arbitrary-query", "admin"], {})).toThrow(/takes guest, record, system, not 'admin'/);
  });

  it("--query-timeout takes a duration (0: none), SURQL_AUTH_QUERY_TIMEOUT as fallback", () => {
    expect(parseCli(["start", "--query-timeout", "250ms"], {})).toMatchObject({ queryTimeoutMs: 250 });
    expect(parseCli(["start", "--query-timeout", "0"], { SURQL_AUTH_QUERY_TIMEOUT: "1m" })).toMatchObject({ queryTimeoutMs: 0 });
    expect(parseCli(["start"], { SURQL_AUTH_QUERY_TIMEOUT: "1m" })).toMatchObject({ queryTimeoutMs: 60_000 });
  });

  it("--transaction-timeout takes a duration (default and 0: none), SURQL_AUTH_TRANSACTION_TIMEOUT as fallback", () => {
    expect(parseCli(["start", "--transaction-timeout", "2s"], {})).toMatchObject({ transactionTimeoutMs: 2000 });
    expect(parseCli(["start", "--transaction-timeout", "0"], { SURQL_AUTH_TRANSACTION_TIMEOUT: "1m" })).toMatchObject({ transactionTimeoutMs: 0 });
    expect(parseCli(["start"], { SURQL_AUTH_TRANSACTION_TIMEOUT: "1m" })).toMatchObject({ transactionTimeoutMs: 60_000 });
    expect(() => parseCli(["start", "--transaction-timeout", "soon"], {})).toThrow("--transaction-timeout must be a duration such as 500ms or 30s (0 for none), not 'soon'");
  });

  it("an empty SURQL_AUTH_PATH is memory, as an empty SURREAL_PATH", () => {
    expect(parseCli(["start"], { SURQL_AUTH_PATH: "" })).toMatchObject({ storage: "memory" });
    expect(parseCli(["start"], { SURQL_AUTH_PATH: "file:/tmp/x" })).toMatchObject({ storage: "file:/tmp/x" });
  });

  it("--max-connections-per-ip takes a count (0: no limit), SURQL_AUTH_MAX_CONNECTIONS_PER_IP as fallback", () => {
    expect(parseCli(["start", "--max-connections-per-ip", "8"], {})).toMatchObject({ maxConnectionsPerIp: 8 });
    expect(parseCli(["start", "--max-connections-per-ip", "0"], { SURQL_AUTH_MAX_CONNECTIONS_PER_IP: "3" })).toMatchObject({ maxConnectionsPerIp: 0 });
    expect(parseCli(["start"], { SURQL_AUTH_MAX_CONNECTIONS_PER_IP: "3" })).toMatchObject({ maxConnectionsPerIp: 3 });
  });

  it("reads flags, repeatable imports in order, and IPv6 binds", () => {
    const o = parseCli(["start", "-b", "[::1]:9001", "-u", "root", "-p", "s3cret", "-i", "a.surql", "--import", "b.surql", "--compat", "1", "memory"], {});
    expect(o).toMatchObject({ host: "::1", port: 9001, user: "root", pass: "s3cret", imports: ["a.surql", "b.surql"], compat: 1 });
  });

  it("start PATH: memory, file:PATH, a bare path, postgres://…; SURQL_AUTH_PATH as fallback, the argument wins", () => {
    expect(parseCli(["start", "file:/tmp/a.db"], {})).toMatchObject({ storage: "file:/tmp/a.db" });
    expect(parseCli(["start", "data/a.db"], {})).toMatchObject({ storage: "data/a.db" });
    expect(parseCli(["start", "postgres://u@127.0.0.1:5432/db"], {})).toMatchObject({ storage: "postgres://u@127.0.0.1:5432/db" });
    expect(parseCli(["start"], { SURQL_AUTH_PATH: "file:x.db" })).toMatchObject({ storage: "file:x.db" });
    expect(parseCli(["start", "memory"], { SURQL_AUTH_PATH: "file:x.db" })).toMatchObject({ storage: "memory" });
    expect(() => parseCli(["start"], { SURQL_AUTH_PATH: "rocksdb:x" })).toThrow(/not available in surql-auth/);
  });

  it("falls back to SURQL_AUTH_* environment variables, flags win", () => {
    const env = { SURQL_AUTH_BIND: "0.0.0.0:8080", SURQL_AUTH_USER: "u", SURQL_AUTH_PASS: "p", SURQL_AUTH_IMPORT: "x.surql,y.surql", SURQL_AUTH_COMPAT: "1", SURQL_AUTH_UNAUTHENTICATED: "true" };
    expect(parseCli(["start"], env)).toMatchObject({ host: "0.0.0.0", port: 8080, user: "u", imports: ["x.surql", "y.surql"], compat: 1, unauthenticated: true });
    expect(parseCli(["start", "--compat", "2", "--bind", "127.0.0.1:1"], env)).toMatchObject({ compat: 2, port: 1 });
  });

  it.each([
    [["start", "--compat", "3"], /--compat must be 1 or 2/],
    [["start", "--bind", "nope"], /HOST:PORT/],
    [["start", "--bind", "127.0.0.1:70000"], /HOST:PORT/],
    [["start", "--user", "root"], /go together/],
    [["start", "--log", "loud"], /--log must be one of/],
    [["start", "rocksdb://x"], /The storage engine 'rocksdb' is not available in surql-auth: use file:PATH instead/],
    [["start", "tikv://h:2379"], /use postgres:\/\/USER@HOST:PORT\/DB instead/],
    [["start", "file:"], /Unknown storage path 'file:'/],
    [["start", "memory", "file:x"], /start takes one PATH/],
    [["start", "--v1-token-duration=-5"], /positive number/],
    [["start", "--v1-token-duration", "1h"], /positive number/],
    [["start", "--query-timeout", "10"], /--query-timeout must be a duration/],
    [["start", "--max-connections-per-ip=-1"], /--max-connections-per-ip must be a number/],
    [["start", "--max-connections-per-ip", "many"], /--max-connections-per-ip must be a number/],
    [["start", "--frobnicate"], /frobnicate/],
    [["check"], /at least one FILE/],
    [["sql", "--endpoint", "ftp://x"], /http\(s\)/],
    [["explode"], /unknown command 'explode'/],
  ])("refuses %j with a usage error", (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(UsageError);
    expect(() => parseCli(argv, {})).toThrow(message);
  });

  it("check and sql take their own options", () => {
    expect(parseCli(["check", "--compat", "1", "a.surql", "b.surql"], {})).toEqual({ command: "check", files: ["a.surql", "b.surql"], compat: 1 });
    expect(parseCli(["check", "--namespace", "app", "--db", "main", "a.surql"], {})).toEqual({ command: "check", files: ["a.surql"], compat: 2, ns: "app", db: "main" });
    expect(() => parseCli(["check", "--db", "main", "a.surql"], {})).toThrow("--db needs --ns");
    expect(parseCli(["sql", "-e", "ws://127.0.0.1:8000", "--ns", "app", "--db", "app", "-q", "INFO FOR DB"], {})).toMatchObject({
      command: "sql",
      endpoint: "ws://127.0.0.1:8000",
      ns: "app",
      db: "app",
      authLevel: "root",
      query: "INFO FOR DB",
    });
    expect(parseCli(["sql", "--auth-level", "database"], {})).toMatchObject({ authLevel: "database" });
    expect(parseCli(["sql", "--token", "t", "--pretty", "--json", "--multi", "--hide-welcome"], {})).toMatchObject({ token: "t", user: undefined, pretty: true, json: true, multi: true, hideWelcome: true });
    expect(parseCli(["sql"], {})).toMatchObject({ token: undefined, pretty: undefined, json: false, multi: undefined, hideWelcome: false });
    expect(() => parseCli(["sql", "--token", "t", "--user", "u"], {})).toThrow(/--token and --user/);
    expect(parseCli(["is-ready", "--endpoint", "https://h:1"], {})).toEqual({ command: "is-ready", endpoint: "https://h:1" });
    expect(parseCli(["isready", "--conn", "ws://h:1"], {})).toEqual({ command: "is-ready", endpoint: "ws://h:1" });
    expect(() => parseCli(["sql", "--auth-level", "scope"], {})).toThrow(/--auth-level/);
  });
});

describe("throttle flags", () => {
  it("flags win over SURQL_AUTH_* variables; durations and counts are checked; --no-throttle turns it off", () => {
    expect(parseCli(["start", "--signin-max-failures", "5", "--signin-window", "10m", "--ip-max-attempts", "0", "--ip-window", "30s"], { SURQL_AUTH_SIGNIN_MAX_FAILURES: "7" })).toMatchObject({
      throttle: { signinMaxFailures: 5, signinWindowMs: 600_000, ipMaxAttempts: 0, ipWindowMs: 30_000 },
    });
    expect(parseCli(["start"], { SURQL_AUTH_SIGNIN_MAX_FAILURES: "7", SURQL_AUTH_NO_THROTTLE: "1", SURQL_AUTH_LIMITS: "l.json" })).toMatchObject({
      throttle: { signinMaxFailures: 7, enabled: false },
      limitsFile: "l.json",
    });
    expect(parseCli(["start", "--no-throttle", "--limits", "x.json"], {})).toMatchObject({ throttle: { enabled: false }, limitsFile: "x.json" });
    expect(() => parseCli(["start", "--signin-max-failures", "-1"], {})).toThrow(UsageError);
    expect(() => parseCli(["start", "--signin-window", "soon"], {})).toThrow("--signin-window must be a duration");
  });
});
