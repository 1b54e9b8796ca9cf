// The console's only way to the server: the public HTTP API (GET /version, POST /signin, /signup, /sql).

/** One statement's answer in POST /sql's result array. */
export interface StatementResult {
  readonly status: "OK" | "ERR";
  readonly time: string;
  readonly result: unknown;
}

/** A token and the namespace / database its queries use. */
export interface Conn {
  readonly token: string;
  readonly ns?: string;
  readonly db?: string;
}

/** The server refused a request: HTTP status and SurrealDB's error text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** SurrealDB's error body's most specific text ("information"), or the raw body. */
function errorText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { information?: string; description?: string; details?: string };
    return parsed.information ?? parsed.description ?? parsed.details ?? body;
  } catch {
    return body.trim() || `HTTP ${status}`;
  }
}

async function call(path: string, init: RequestInit): Promise<string> {
  const res = await fetch(path, { ...init, cache: "no-store", credentials: "omit" });
  const body = await res.text();
  if (!res.ok) throw new ApiError(res.status, errorText(res.status, body));
  return body;
}

/** `surrealdb-2.6.0` or `surrealdb-1.5.4`. */
export function version(): Promise<string> {
  return call("/version", { method: "GET" });
}

/** POST /signin or /signup: every payload field becomes what the server expects (user/pass, NS, DB, AC/SC, variables). */
export async function signin(route: "signin" | "signup", payload: Record<string, unknown>): Promise<string> {
  const body = await call(`/${route}`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  const token = (JSON.parse(body) as { token?: unknown }).token;
  if (typeof token !== "string") throw new ApiError(200, "The server answered without a token");
  return token;
}

/** POST /sql with a bearer token; `vars` travel as query-string variables ($name, strings only). */
export async function sql(conn: Conn, text: string, vars: Record<string, string> = {}): Promise<StatementResult[]> {
  const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${conn.token}` };
  if (conn.ns) headers["surreal-ns"] = conn.ns;
  if (conn.db) headers["surreal-db"] = conn.db;
  const qs = new URLSearchParams(vars).toString();
  try {
    return JSON.parse(await call(`/sql${qs ? `?${qs}` : ""}`, { method: "POST", headers, body: text })) as StatementResult[];
  } catch (e) {
    // a token /sql refuses has expired or is forged (signin answers bad credentials itself)
    if (e instanceof ApiError && e.status === 401) throw new ApiError(401, `${e.message} (the server refused the token: it may have expired, or be signed with another key)`);
    throw e;
  }
}

/** A registered realtime session as GET /sessions lists it (times ISO 8601, absent fields null). */
export interface SessionEntry {
  readonly id: string;
  readonly node: string | null;
  readonly level: string;
  readonly user: string | null;
  readonly ns: string | null;
  readonly db: string | null;
  readonly access: string | null;
  readonly ip: string | null;
  readonly started: string | null;
  readonly expires: string | null;
  readonly lastSeen: string | null;
}

/** GET /sessions (system OWNERs; 404 / 501 when the server has no session registry). */
export async function listSessions(token: string): Promise<SessionEntry[]> {
  return JSON.parse(await call("/sessions", { method: "GET", headers: { accept: "application/json", authorization: `Bearer ${token}` } })) as SessionEntry[];
}

/** DELETE /sessions/:id: the session answers "The session has expired" from its next call. */
export async function killSession(token: string, id: string): Promise<void> {
  await call(`/sessions/${encodeURIComponent(id)}`, { method: "DELETE", headers: { accept: "application/json", authorization: `Bearer ${token}` } });
}

/** One statement's result, or its error text thrown. */
export async function sqlOne(conn: Conn, text: string, vars?: Record<string, string>): Promise<unknown> {
  const [first] = await sql(conn, text, vars);
  if (!first) throw new ApiError(200, "No result");
  if (first.status !== "OK") throw new ApiError(200, String(first.result));
  return first.result;
}

/** One permission decision of POST /explain (README "Explaining permissions"); absent fields are left out. */
export interface ExplainedDecision {
  readonly statement: number;
  readonly kind: string;
  readonly table?: string;
  readonly field?: string;
  readonly path?: string;
  readonly name?: string;
  readonly record?: string;
  readonly action: string;
  readonly clause: string;
  readonly allowed: boolean;
  readonly reason: string;
  readonly values?: Record<string, string>;
  readonly error?: string;
}

/** POST /explain: `query` as the identity `as`, a dry run; its answers and every decision behind them. */
export async function explain(conn: Conn, as: string, query: string): Promise<{ results: StatementResult[]; decisions: ExplainedDecision[] }> {
  const headers: Record<string, string> = { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${conn.token}` };
  if (conn.ns) headers["surreal-ns"] = conn.ns;
  if (conn.db) headers["surreal-db"] = conn.db;
  return JSON.parse(await call("/explain", { method: "POST", headers, body: JSON.stringify({ as, query }) })) as never;
}
