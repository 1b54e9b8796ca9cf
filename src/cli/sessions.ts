// CLI `sessions list|kill`: the session registry of a running server over HTTP (GET /sessions, POST /sessions/kill),
// as a system OWNER (Basic with --user / --pass, or Bearer with --token).

import { parseArgs } from "node:util";
import type { SessionEntry } from "../iam/sessions.js";
import { CONNECTION_FLAGS, UsageError, optionsOrUsage } from "./args.js";
import { failure } from "./export.js";

export const SESSIONS_USAGE = `usage: surql-auth sessions list [FILTER…] [--json] --endpoint URL (--user U --pass P | --token JWT)
       surql-auth sessions kill (all | FILTER…) --endpoint URL (--user U --pass P | --token JWT)
FILTER: id ID | user NAME (a system user's name or a record id) | access NAME | ns NS | db DB
  --auth-level root|namespace|database (default root) with --ns NS [--db DB]: the level --user signs in at
  SURQL_AUTH_ENDPOINT, SURQL_AUTH_USER, SURQL_AUTH_PASS as fallbacks`;

const FILTER_WORDS = new Set(["id", "user", "access", "ns", "db"]);

interface SessionsOptions {
  readonly action: "list" | "kill";
  readonly filter: Record<string, string | boolean>;
  readonly endpoint: string;
  readonly headers: Record<string, string>;
  readonly json: boolean;
}

export function parseSessions(argv: readonly string[], env: NodeJS.ProcessEnv): SessionsOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { ...CONNECTION_FLAGS, token: { type: "string", short: "t" }, json: { type: "boolean" } },
  });
  const [action, ...words] = positionals;
  if (action !== "list" && action !== "kill") throw new UsageError("sessions takes list or kill");
  // 1. the filter: `all`, or pairs of a field and its value
  const filter: Record<string, string | boolean> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "all") filter["all"] = true;
    else if (FILTER_WORDS.has(word) && words[i + 1] !== undefined) filter[word] = words[++i]!;
    else throw new UsageError(`unknown filter '${word}' (id ID, user NAME, access NAME, ns NS, db DB, all)`);
  }
  if (filter["all"] === true && Object.keys(filter).length > 1) throw new UsageError("all goes alone");
  if (action === "kill" && Object.keys(filter).length === 0) throw new UsageError("kill needs all or a filter");
  // 2. where, and who asks
  const endpoint = values.endpoint ?? env.SURQL_AUTH_ENDPOINT ?? "http://127.0.0.1:8000";
  if (!/^https?:\/\//.test(endpoint)) throw new UsageError(`--endpoint must be an http(s):// URL, not '${endpoint}'`);
  const user = values.user ?? env.SURQL_AUTH_USER;
  const pass = values.pass ?? env.SURQL_AUTH_PASS;
  const headers: Record<string, string> = {};
  if (values.token !== undefined) headers.authorization = `Bearer ${values.token}`;
  else if (user !== undefined && pass !== undefined) headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
  else throw new UsageError("sessions needs --user and --pass, or --token");
  const level = values["auth-level"] ?? "root";
  if (level !== "root" && level !== "namespace" && level !== "database") throw new UsageError(`--auth-level must be root, namespace or database, not '${level}'`);
  if (level !== "root") {
    if (values.ns === undefined || (level === "database" && values.db === undefined)) throw new UsageError(`--auth-level ${level} needs --ns${level === "database" ? " and --db" : ""}`);
    headers["surreal-auth-ns"] = values.ns;
    if (level === "database") headers["surreal-auth-db"] = values.db!;
  }
  return { action, filter, endpoint, headers, json: values.json ?? false };
}

function sessionsUrl(endpoint: string, tail: string): URL {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/(rpc|sql)?\/?$/, "")}/sessions${tail}`;
  return url;
}

/** One line per session: id, level and user, where, access, IP, times. */
export function formatSession(e: SessionEntry): string {
  const where = [e.ns, e.db].filter((x) => x !== null).join("/") || "-";
  return [e.id, `${e.level}:${e.user}`, where, e.access ?? "-", e.ip ?? "-", `started ${e.started}`, `seen ${e.lastSeen}`, `expires ${e.expires ?? "never"}`, `node ${e.node}`].join("  ");
}

export async function sessionsCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const opts = optionsOrUsage("sessions", () => parseSessions(argv, env));
  if (opts === undefined) return 2;
  const res =
    opts.action === "list"
      ? await fetch(`${sessionsUrl(opts.endpoint, "")}?${new URLSearchParams(opts.filter as Record<string, string>)}`, { headers: opts.headers })
      : await fetch(sessionsUrl(opts.endpoint, "/kill"), { method: "POST", headers: { ...opts.headers, "content-type": "application/json" }, body: JSON.stringify(opts.filter) });
  const body = await res.text();
  if (res.status !== 200) {
    process.stderr.write(`surql-auth: ${failure(`sessions ${opts.action}`, res.status, body)}\n`);
    return 1;
  }
  if (opts.json) {
    process.stdout.write(`${body}\n`);
    return 0;
  }
  const entries = opts.action === "list" ? (JSON.parse(body) as SessionEntry[]) : (JSON.parse(body) as { killed: SessionEntry[] }).killed;
  for (const e of entries) process.stdout.write(`${formatSession(e)}\n`);
  process.stdout.write(`${entries.length} session(s)${opts.action === "kill" ? " killed" : ""}\n`);
  return 0;
}
