// CLI `explain --as IDENTITY "QUERY"`: run a query as an identity and say which PERMISSIONS clause allowed or denied
// each record and field — on a fresh in-memory engine loaded with --schema files (Connection.explain), or on a running
// server (POST /explain, as a system user who may view the database's definitions).

import { parseArgs } from "node:util";
import { parse } from "../../grammar/index.js";
import { printStatement } from "../ast/print.js";
import { ImportError, SurqlAuth, type ExplainedDecision } from "../index.js";
import { toJson } from "../value/json.js";
import { toSql } from "../value/display.js";
import { CONNECTION_FLAGS, UsageError, connection, optionsOrUsage, parseCompat } from "./args.js";
import { explanationText, type PrintedAnswer } from "./explain-text.js";
import { failure, transferHeaders } from "./export.js";
import { IDENTITY_FORMS, IdentitySpecError, connectAs, errorMessage, parseIdentity, type IdentitySpec } from "./identity.js";
import { schemaWhere } from "./test-run.js";

export const EXPLAIN_USAGE = `usage: surql-auth explain --as IDENTITY [--schema FILE]... [--compat 1|2] [--ns NS --db DB] [--json] QUERY
       surql-auth explain --as IDENTITY --endpoint URL (--user U --pass P | --token JWT) --ns NS --db DB [--json] QUERY

Run QUERY as IDENTITY and show, per statement, its answer and every PERMISSIONS decision behind it: what was judged
(table, field, param, function), the record, the action, the clause as INFO prints it, the $auth / $access ($scope)
/ $token / $session values it read, and whether it allowed or denied.
Without --endpoint the query runs on a fresh in-memory engine loaded with the --schema files (its writes are kept
for the next statements and then thrown away; guests may query, as with start --allow-guests). With --endpoint it runs on that server (POST /explain) as a dry run:
nothing it writes is kept; the server accepts only anonymous, ROLE@LEVEL and record ACCESS as ID there.
IDENTITY: ${IDENTITY_FORMS.replace(/\n/g, "\n          ")}
  --schema FILE                 a .surql file to load first (repeatable, in order; USE selects ns / db)
  --compat 1|2                  dialect of the files (default 2)              SURQL_AUTH_COMPAT
  --ns NS, --db DB              where the query runs (default: the schema's last USE)
  --json                        the explanation as JSON: { results, decisions } (README "Explaining permissions")
  -e, --endpoint URL            a running server instead; -u/-p or --token, --auth-level as for export
  -h, --help                    this text
Exit codes: 0 done, 1 the sign-in as IDENTITY or the server refused, 2 a usage error or a schema that does not load.`;

interface ExplainOptions {
  readonly spec: IdentitySpec;
  readonly specText: string;
  readonly query: string;
  readonly schema: readonly string[];
  readonly compat: 1 | 2;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly json: boolean;
  /** --endpoint: the server and the headers that authenticate the caller. */
  readonly remote: { readonly url: URL; readonly headers: Record<string, string> } | undefined;
}

/** `--as` parsed, its error pointing into the spec. */
function identityOf(text: string | undefined): IdentitySpec {
  if (text === undefined) throw new UsageError(`explain needs --as IDENTITY (${IDENTITY_FORMS.replace(/\n/g, " ")})`);
  try {
    return parseIdentity(text);
  } catch (e) {
    if (e instanceof IdentitySpecError) throw new UsageError(`--as: ${e.message} (column ${e.column})`);
    throw e;
  }
}

export function parseExplain(argv: readonly string[], env: NodeJS.ProcessEnv): ExplainOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { ...CONNECTION_FLAGS, as: { type: "string" }, schema: { type: "string", multiple: true }, compat: { type: "string" }, json: { type: "boolean" } },
  });
  if (positionals.length !== 1) throw new UsageError("explain needs one QUERY (quote it)");
  const spec = identityOf(values.as);
  let remote: ExplainOptions["remote"];
  if (values.endpoint !== undefined) {
    if (values.schema !== undefined) throw new UsageError("--schema and --endpoint cannot be used together");
    const conn = connection(values, env, /^https?:\/\//, "http(s)://");
    if (conn.ns === undefined || conn.db === undefined) throw new UsageError("--endpoint needs --ns and --db");
    if (conn.token === undefined && conn.user === undefined) throw new UsageError("--endpoint needs --user and --pass, or --token");
    const url = new URL(conn.endpoint);
    url.pathname = `${url.pathname.replace(/\/(rpc|sql)?\/?$/, "")}/explain`;
    remote = { url, headers: transferHeaders({ ...conn, ns: conn.ns, db: conn.db }) };
  }
  return {
    spec,
    specText: values.as!,
    query: positionals[0]!,
    schema: values.schema ?? [],
    compat: parseCompat(values.compat ?? env.SURQL_AUTH_COMPAT),
    ns: values.ns,
    db: values.db,
    json: values.json ?? false,
    remote,
  };
}

/** The texts of the statements that answer (BEGIN, COMMIT, CANCEL and OPTION do not); none if the query does not parse. */
function statementTexts(query: string): string[] {
  try {
    return parse(query)
      .filter((s) => s.kind !== "Begin" && s.kind !== "Commit" && s.kind !== "Cancel" && s.kind !== "Option")
      .map((s) => printStatement(s));
  } catch {
    return [];
  }
}

/** What the command prints: JSON (`{ results, decisions }`, values as JSON) or text. */
interface Explained {
  readonly results: { result: unknown; status: string; time: string }[];
  readonly printed: PrintedAnswer[];
  readonly decisions: ExplainedDecision[];
}

/** On a fresh engine: load the schema, sign in as the identity, explain. */
async function explainLocally(opts: ExplainOptions): Promise<Explained> {
  const auth = await SurqlAuth.open({ compat: opts.compat, import: opts.schema, allowGuests: true, throttle: { enabled: false }, sessionSyncMs: 0 });
  const fromSchema = await schemaWhere(opts.schema);
  const where = { ns: opts.ns ?? fromSchema.ns, db: opts.db ?? (opts.ns === undefined ? fromSchema.db : undefined) };
  const conn = await connectAs(auth, opts.spec, where);
  const { results, decisions } = await conn.explain(opts.query);
  const cfg = { compat: opts.compat };
  return {
    results: results.map((r) => ({ result: toJson(r.result, cfg), status: r.status, time: r.time })),
    printed: results.map((r) => ({ status: r.status, text: r.status === "OK" ? toSql(r.result, cfg) : String(r.result) })),
    decisions,
  };
}

/** On a server: POST /explain; a refusal is the server's error text. */
async function explainRemotely(opts: ExplainOptions, remote: NonNullable<ExplainOptions["remote"]>): Promise<Explained | string> {
  const res = await fetch(remote.url, {
    method: "POST",
    headers: { ...remote.headers, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ as: opts.specText, query: opts.query }),
  });
  const body = await res.text();
  if (res.status !== 200) return failure("explain", res.status, body);
  const { results, decisions } = JSON.parse(body) as { results: Explained["results"]; decisions: ExplainedDecision[] };
  return { results, decisions, printed: results.map((r) => ({ status: r.status, text: r.status === "OK" ? JSON.stringify(r.result) : String(r.result) })) };
}

export async function explainCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const opts = optionsOrUsage("explain", () => parseExplain(argv, env));
  if (opts === undefined) return 2;
  let out: Explained | string;
  try {
    out = opts.remote ? await explainRemotely(opts, opts.remote) : await explainLocally(opts);
  } catch (e) {
    if (e instanceof ImportError) {
      process.stderr.write(`surql-auth: ${e.message}\n${e.snippet ? `${e.snippet.replace(/^/gm, "  ")}\n` : ""}`);
      return 2;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`surql-auth: ${e.message}\n`);
      return 2;
    }
    out = `explain as ${opts.specText}: ${errorMessage(e)}`;
  }
  if (typeof out === "string") {
    process.stderr.write(`surql-auth: ${out}\n`);
    return 1;
  }
  if (opts.json) process.stdout.write(`${JSON.stringify({ results: out.results, decisions: out.decisions }, null, 2)}\n`);
  else process.stdout.write(explanationText(out.printed, out.decisions, statementTexts(opts.query)));
  return 0;
}
