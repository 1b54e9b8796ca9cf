// Test doubles for the two services the server drives: a scripted engine and an IAM with fixed users and tokens.

import { InvalidAuth, ParseError, SurrealError } from "../../src/errors/index.js";
import type { QueryResponse } from "../../src/exec/contract.js";
import { ANONYMOUS, type Compat, type Session } from "../../src/exec/session.js";
import { createServer, type SurrealServer } from "../../src/server/http.js";
import type { AuthService, ServerEngine, ServerLimits, SigninResult } from "../../src/server/types.js";
import { RecordId, type Value, type ValueObject } from "../../src/value/types.js";

export interface ExecuteCall {
  readonly query: string;
  readonly vars: Readonly<Record<string, Value>>;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly actor: string;
  readonly session: Session;
}

/** Echoes every statement as `{ query, vars }` unless a test scripts `respond`; "BAD SQL" is a parse error. */
export class FakeEngine implements ServerEngine {
  nowMs = Date.UTC(2026, 0, 1);
  readonly clock = { now: () => this.nowMs };
  readonly calls: ExecuteCall[] = [];
  respond: (call: ExecuteCall) => QueryResponse[] | Promise<QueryResponse[]> = (call) => [
    { status: "OK", result: { query: call.query, vars: { ...call.vars } }, time: "1.5ms" },
  ];
  exportSql?: (session: Session) => Promise<string>;

  constructor(readonly compat: Compat = 2) {}

  async execute(query: string | readonly unknown[], session: Session, vars: Readonly<Record<string, Value>> = {}): Promise<QueryResponse[]> {
    if (typeof query !== "string") throw new Error("fake engine takes text only");
    if (query.includes("BAD SQL")) throw new ParseError("Parse error: Unexpected token `SQL`", { line: 1, column: 5, offset: 4 });
    const call = { query, vars, ns: session.ns, db: session.db, actor: session.actor.id, session };
    this.calls.push(call);
    return this.respond(call);
  }

  get last(): ExecuteCall {
    return this.calls[this.calls.length - 1];
  }
}

function root(session: Session): void {
  session.actor = { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] };
}

function viewer(session: Session): void {
  session.actor = { level: "Root", ns: undefined, db: undefined, id: "viewer", roles: ["VIEWER"] };
}

/**
 * Users: root/root (Owner), viewer/viewer. Tokens: "tok-root", "tok-viewer", "tok-badrole" (verified, but its RL names no role),
 * "tok-ns-a" (owner of namespace a), "tok-stale" (valid, but the session it creates expired ten seconds ago). Record signup: `{NS, DB, AC: "user"}`.
 */
export class FakeIam implements AuthService {
  readonly basicCalls: { user: string; pass: string; level: { ns: string | undefined; db: string | undefined } }[] = [];
  refreshToken: string | undefined;

  constructor(private readonly engine: FakeEngine) {}

  async signin(session: Session, vars: ValueObject): Promise<SigninResult> {
    if (vars["user"] === "root" && vars["pass"] === "root") {
      root(session);
      session.exp = undefined;
      return this.refreshToken === undefined ? { token: "tok-root" } : { token: "tok-root", refresh: this.refreshToken };
    }
    if (vars["user"] === "norecord") throw new SurrealError("NoRecordFound", "No record was returned");
    if (vars["user"] === "forbidden") throw new SurrealError("NotAllowed", "IAM error: Not enough permissions to perform this action");
    throw new InvalidAuth("wrong credentials");
  }

  async signup(session: Session, vars: ValueObject): Promise<SigninResult> {
    if (vars["NS"] === undefined || vars["DB"] === undefined || vars["AC"] === undefined) throw new SurrealError("InvalidSignup", "There was a problem with signing up");
    session.actor = { level: "Record", ns: String(vars["NS"]), db: String(vars["DB"]), id: "user:1", roles: [] };
    session.rd = new RecordId("user", 1n);
    return "tok-record";
  }

  async authenticate(session: Session, token: string): Promise<void> {
    switch (token) {
      case "tok-root":
        root(session);
        return;
      case "tok-viewer":
        viewer(session);
        return;
      case "tok-ns-a":
        session.actor = { level: "Namespace", ns: "a", db: undefined, id: "nsowner", roles: ["OWNER"] };
        return;
      case "tok-stale":
        root(session);
        session.exp = Math.floor(this.engine.nowMs / 1000) - 10;
        return;
      case "tok-badrole":
        throw new SurrealError("InvalidRole", "IAM error: Invalid role 'Boss'");
      default:
        throw new InvalidAuth("bad token");
    }
  }

  invalidate(session: Session): void {
    session.actor = ANONYMOUS;
    session.rd = undefined;
    session.tk = undefined;
  }

  reset(session: Session): void {
    this.invalidate(session);
    session.ns = undefined;
    session.db = undefined;
    session.params.clear();
  }

  async info(session: Session): Promise<Value> {
    return session.rd === undefined ? undefined : { id: session.rd, name: "Tobie" };
  }

  async basicAuth(session: Session, user: string, pass: string, level: { ns: string | undefined; db: string | undefined }): Promise<void> {
    this.basicCalls.push({ user, pass, level });
    if (user === "root" && pass === "root") return root(session);
    throw new InvalidAuth(user === "root" ? "wrong password" : "unknown user");
  }
}

export interface TestServer {
  readonly server: SurrealServer;
  readonly engine: FakeEngine;
  readonly iam: FakeIam;
  readonly base: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A real server on 127.0.0.1 and a free port, with fakes behind it. */
export async function startServer(opts: { compat?: Compat; limits?: Partial<ServerLimits>; authEnabled?: boolean } = {}): Promise<TestServer> {
  const engine = new FakeEngine(opts.compat ?? 2);
  const iam = new FakeIam(engine);
  const server = createServer({ engine, iam, limits: { wsPingIntervalMs: 0, ...opts.limits }, ...(opts.authEnabled === undefined ? {} : { authEnabled: opts.authEnabled }) });
  const { port } = await server.listen("127.0.0.1", 0);
  return { server, engine, iam, port, base: `http://127.0.0.1:${port}`, close: () => server.close() };
}
