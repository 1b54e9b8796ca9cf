// CLI: the help text of every command (`surql-auth <command> --help`), one place for the words and the env table.

export const COMMANDS = ["start", "check", "sql", "is-ready", "export", "import", "version", "help"] as const;
export type CommandName = (typeof COMMANDS)[number];

const START = `usage: surql-auth start [options] [PATH]

Run the HTTP + WebSocket server (SurrealDB-compatible) on the store PATH names.
PATH: memory (the default: data is lost at exit), file:PATH or a bare PATH (one SQLite file, created if absent,
survives restarts), postgres://USER[:PASS]@HOST:PORT/DB (survives restarts; several servers may share it).
                                                                              environment variable
  -b, --bind HOST:PORT          listen address (default 127.0.0.1:8000)       SURQL_AUTH_BIND
  -u, --user, --username NAME   root user created at start if no root user exists  SURQL_AUTH_USER
  -p, --pass, --password PASS   its password                                  SURQL_AUTH_PASS
  -i, --import, --import-file FILE
                                load a .surql file at start (repeatable, in order; stops at the first failing
                                statement)                                    SURQL_AUTH_IMPORT (comma-separated)
  --compat 1|2                  SurrealDB 1.x (scopes) or 2.x (record access) behaviour (default 2)  SURQL_AUTH_COMPAT
  -l, --log LEVEL               none|error|warn|info|debug|trace (default info)  SURQL_AUTH_LOG
  --log-format text|json        log lines as text or one JSON object each (default text)  SURQL_AUTH_LOG_FORMAT
  --audit-file PATH             also append every audit event to PATH as a JSON line  SURQL_AUTH_AUDIT_FILE
  --log-denials                 audit each record, field or write PERMISSIONS refuse  SURQL_AUTH_LOG_DENIALS
  --no-banner                   do not print the start-up banner              SURQL_AUTH_NO_BANNER
  --web-crt FILE                PEM certificate: serve HTTPS and WSS (with --web-key)  SURQL_AUTH_WEB_CRT
  --web-key FILE                PEM private key of --web-crt                  SURQL_AUTH_WEB_KEY
  --allow-origin ORIGINS        origins browsers may call from (CORS), comma-separated; * for any (default *)
                                                                              SURQL_AUTH_ALLOW_ORIGIN
  --client-ip HOW               where the client's address ($session.ip) comes from: socket (default), none,
                                X-Forwarded-For, X-Real-IP, CF-Connecting-IP, True-Client-IP, Fly-Client-IP
                                (use a header only behind a proxy that sets it)  SURQL_AUTH_CLIENT_IP
  --no-identification-headers   omit the server / surreal-version response headers
                                                                              SURQL_AUTH_NO_IDENTIFICATION_HEADERS
  --unauthenticated             disable authentication: anonymous sessions may do everything  SURQL_AUTH_UNAUTHENTICATED
capabilities (as surreal start; a specific flag wins over --allow-all / --deny-all):
  -A, --allow-all               allow guests (and JWKS fetches, allowed anyway)  SURQL_AUTH_ALLOW_ALL
  -D, --deny-all                deny guests and JWKS fetches (an access method's JWKS URL)  SURQL_AUTH_DENY_ALL
  --allow-guests                let anonymous sessions run queries (subject to PERMISSIONS)  SURQL_AUTH_ALLOW_GUESTS
  --deny-guests                 anonymous sessions may only sign in / up      SURQL_AUTH_DENY_GUESTS
  --deny-arbitrary-query GROUPS guest,record,system: sessions of these groups may sign in / up, authenticate,
                                ping, info and version, and nothing else (as surreal: the other RPC methods answer
                                'Method not allowed', POST /sql and /key 403)  SURQL_AUTH_DENY_ARBITRARY_QUERY
  --deny-funcs TARGETS          functions no query may call: '*', families (crypto, http, fn for custom
                                ones) or names (string::len), comma-separated  SURQL_AUTH_DENY_FUNCS
limits:
  --v1-token-duration SECS      compat 1: default token life of scope users (default 86400)  SURQL_AUTH_V1_TOKEN_DURATION
  --query-timeout DURATION      time limit of one query, e.g. 500ms, 30s; 0 for none (default 10s)  SURQL_AUTH_QUERY_TIMEOUT
  --transaction-timeout DURATION  time limit of one transaction (a statement, a BEGIN … COMMIT block); 0 for none
                                (default)                                     SURQL_AUTH_TRANSACTION_TIMEOUT
  --max-connections-per-ip N    open connections from one socket address; more get 429; 0 for no limit (default 128)
                                                                              SURQL_AUTH_MAX_CONNECTIONS_PER_IP
  --limits FILE                 JSON limits file (README "Throttling"); the flags below override it  SURQL_AUTH_LIMITS
  --signin-max-failures N       failed signins of one identity per window before it is locked; 0: no lock (default 10)
                                                                              SURQL_AUTH_SIGNIN_MAX_FAILURES
  --signin-window DURATION      the window of those failures (default 15m)    SURQL_AUTH_SIGNIN_WINDOW
  --ip-max-attempts N           signin / signup attempts and failed Basic checks of one client address per window;
                                0: no limit (default 60)                      SURQL_AUTH_IP_MAX_ATTEMPTS
  --ip-window DURATION          the window of those attempts (default 1m)     SURQL_AUTH_IP_WINDOW
  --no-throttle                 count and refuse no signin attempts (tests; a proxy that limits already)
                                                                              SURQL_AUTH_NO_THROTTLE
  -h, --help                    this text

A flag wins over its environment variable; boolean variables take 1/true/yes/on.`;

const CONNECTION = `  -e, --endpoint, --conn URL    the server (default http://127.0.0.1:8000)  SURQL_AUTH_ENDPOINT
  -u, --user, --username NAME   system user to sign in as                     SURQL_AUTH_USER
  -p, --pass, --password PASS   its password                                  SURQL_AUTH_PASS
  --token TOKEN                 authenticate with this token instead          SURQL_AUTH_TOKEN
  --auth-level LEVEL            root|namespace|database: where the user is defined (default root)
  --ns, --namespace NS          namespace to use
  --db, --database DB           database to use`;

const SQL = `usage: surql-auth sql [options]

A SurrealQL shell against a running server, over WebSocket (http(s):// and ws(s):// endpoints both work).
Statements end with ';' (or with the line, with --multi off); 'help' and 'exit' (or Ctrl-D) work; Ctrl-C clears
the line. The prompt shows ns/db; 'USE NS x DB y' changes it.
${CONNECTION}
  -q, --query TEXT              run TEXT, print the result and exit
  --pretty                      indented SurrealQL output (the default on a terminal)
  --json                        JSON output instead of SurrealQL
  --multi                       a statement spans lines until ';' (the default when stdin is not a terminal;
                                on a terminal each line runs, as surreal sql)
  --hide-welcome                do not print the welcome line
  -h, --help                    this text`;

const TRANSFER = (cmd: "export" | "import") =>
  cmd === "export"
    ? `usage: surql-auth export --ns NS --db DB [options] [FILE]

Write the database as SurrealQL to FILE (default stdout), from GET /export of a running server.
${CONNECTION}
  -h, --help                    this text`
    : `usage: surql-auth import --ns NS --db DB [options] FILE

Run a SurrealQL file (e.g. an export; - reads stdin) on the database of a running server, statement by statement
as it is read, stopping at the first failing statement with file:line:column. Shows progress on long imports
(a bar on a terminal, plain lines otherwise).
${CONNECTION}
  -h, --help                    this text`;

const CHECK = `usage: surql-auth check [--compat 1|2] [--ns NS [--db DB]] FILE...

Parse and validate .surql schema files without running them; every problem as file:line:column with a caret.
  --compat 1|2                  dialect (default 2)                           SURQL_AUTH_COMPAT
  --ns NS, --db DB              the namespace / database the files run in until their own USE (as surreal import)
  -h, --help                    this text`;

const IS_READY = `usage: surql-auth is-ready [--endpoint URL]

Exit 0 when the server at URL answers (GET /health), 1 otherwise, as surreal is-ready.
  -e, --endpoint, --conn URL    the server (default http://127.0.0.1:8000)  SURQL_AUTH_ENDPOINT
  -h, --help                    this text`;

export const USAGE = `usage: surql-auth <command> [options]

commands:
  start [PATH]     run the HTTP + WebSocket server (memory, file:PATH or postgres://… storage)
  check FILE...    parse and validate schema files; every error as file:line:column
  test [FILE|DIR]...  run rule test files (*.test.surql): statements as identities, answers against expectations
  sql              SurrealQL shell against a running server
  is-ready         exit 0 when a server answers
  export [FILE]    write a database as SurrealQL
  import FILE      run a SurrealQL file on a database
  sessions list|kill  list or end the sessions of a running server
  matrix FILE...   who may select / create / update / delete each table and field; risky rules
  explain --as IDENTITY QUERY  which PERMISSIONS clause allowed or denied each record and field of a query
  version          print the version
  help [COMMAND]   this text, or a command's options

Run 'surql-auth <command> --help' for a command's options.`;

const TEXTS: Record<CommandName, string> = {
  start: START,
  check: CHECK,
  sql: SQL,
  "is-ready": IS_READY,
  export: TRANSFER("export"),
  import: TRANSFER("import"),
  version: "usage: surql-auth version\n\nPrint the version.",
  help: USAGE,
};

/** The help of one command (the overview without one). */
export function usageOf(command: CommandName | undefined): string {
  return command === undefined ? USAGE : TEXTS[command];
}

/** The second line of a usage error: where to read more. */
export function hintFor(command: string | undefined): string {
  return command === undefined || command === "help" ? "try 'surql-auth --help'" : `try 'surql-auth ${command} --help'`;
}
