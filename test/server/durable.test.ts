// #10: the real CLI on a durable store. `surql-auth start file:DIR` is killed with SIGKILL while clients sign up
// concurrently; started again on the same folder, every acknowledged signup signs in and earlier tokens still work.
// Two servers started on one PostgreSQL database are nodes: a user signed up on one signs in on the other, and a
// DEFINE FIELD made on one applies to signups on the other.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { postgresSkipReason, startPostgres, type PostgresCluster } from "../helpers/postgres.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");

/** Plain-text passwords keep the test cheap: the store, not the hash, is under test. */
const SCHEMA: Record<1 | 2, string> = {
  1: `DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id; DEFINE INDEX email ON user FIELDS email UNIQUE;
DEFINE SCOPE account SESSION 1d
  SIGNUP (CREATE user SET email = $email, pass = $pass)
  SIGNIN (SELECT * FROM user WHERE email = $email AND pass = $pass);`,
  2: `DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id; DEFINE INDEX email ON user FIELDS email UNIQUE;
DEFINE ACCESS account ON DATABASE TYPE RECORD
  SIGNUP (CREATE user SET email = $email, pass = $pass)
  SIGNIN (SELECT * FROM user WHERE email = $email AND pass = $pass)
  DURATION FOR TOKEN 1h, FOR SESSION 1d;`,
};

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Server {
  readonly child: ChildProcess;
  readonly base: string;
  readonly exited: Promise<void>;
}

/** Starts the CLI on port 0 and waits for its "listening" line, then for /health to answer 200. */
async function startCli(compat: 1 | 2, path: string, schemaFile: string): Promise<Server> {
  const args = ["--import", "tsx", MAIN, "start", "-b", "127.0.0.1:0", "-u", "root", "-p", "root", "-i", schemaFile, "--compat", String(compat), "--no-throttle", path];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, SURQL_AUTH_PATH: "" } });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let log = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) resolve(Number(m[1]));
    });
    void exited.then(() => reject(new Error(`the server exited before listening:\n${log}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base, exited };
}

const JSON_HEADERS = { accept: "application/json", "content-type": "application/json" };

function credentials(compat: 1 | 2, email: string): Record<string, string> {
  return { NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", email, pass: `pw-${email}` };
}

/** POST /signup or /signin; the token, or undefined when the server refused or the connection broke. */
async function sign(base: string, route: "signup" | "signin", body: Record<string, string>): Promise<string | undefined> {
  try {
    const r = await fetch(`${base}/${route}`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
    if (r.status !== 200) return undefined;
    return ((await r.json()) as { token?: string }).token;
  } catch {
    return undefined;
  }
}

/** Runs `text` with a Bearer token over POST /sql; the first statement's result. */
async function queryAs(base: string, token: string, text: string): Promise<unknown> {
  const r = await fetch(`${base}/sql`, { method: "POST", headers: { accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "app", "surreal-db": "app" }, body: text });
  expect(r.status).toBe(200);
  const [first] = (await r.json()) as { status: string; result: unknown }[];
  expect(first?.status).toBe("OK");
  return first?.result;
}

describe.each([1, 2] as const)("surql-auth start file:PATH, compat %i", (compat) => {
  it("keeps every acknowledged signup and every issued token across a SIGKILL during concurrent signups", async () => {
    const dir = mkdtempSync(join(tmpdir(), "surql-auth-durable-"));
    dirs.push(dir);
    const schemaFile = join(dir, "schema.surql");
    writeFileSync(schemaFile, SCHEMA[compat]);
    const path = `file:${join(dir, "store")}`;

    const first = await startCli(compat, path, schemaFile);
    const earlyToken = await sign(first.base, "signup", credentials(compat, "early@x"));
    expect(earlyToken).toBeDefined();

    // several clients sign up in a loop; the server is killed once a random number of signups are acknowledged
    const acked: { email: string; token: string }[] = [];
    const killAfter = 5 + Math.floor(Math.random() * 40);
    let stop = false;
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const email = `c${c}-${i}@x`;
        const token = await sign(first.base, "signup", credentials(compat, email));
        if (token === undefined) return;
        acked.push({ email, token });
        if (acked.length >= killAfter && !stop) {
          stop = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    await first.exited;
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(acked.length).toBeGreaterThanOrEqual(killAfter);

    // the same command on the same folder: the root user and the schema are there already, which is no error
    const second = await startCli(compat, path, schemaFile);
    for (const { email } of [{ email: "early@x" }, ...acked]) {
      expect(await sign(second.base, "signin", credentials(compat, email)), email).toBeDefined();
    }
    expect(await queryAs(second.base, earlyToken!, "RETURN $auth.email")).toBe("early@x");
    const last = acked.at(-1)!;
    expect(await queryAs(second.base, last.token, "RETURN $auth.email")).toBe(last.email);
    // --user / --pass on an existing store created no second root user
    const rootToken = await sign(second.base, "signin", { user: "root", pass: "root" });
    const info = (await queryAs(second.base, rootToken!, "INFO FOR ROOT")) as { users: Record<string, string> };
    expect(Object.keys(info.users)).toEqual(["root"]);
    // a file: folder has one owner: a second server on it is refused and exits
    await expect(startCli(compat, path, schemaFile)).rejects.toThrow(/cannot open the store .*already in use by another surql-auth process/);
    second.child.kill("SIGTERM");
    await second.exited;
    expect(second.child.exitCode).toBe(0);
  }, 120_000);
});

const pgSkip = postgresSkipReason();
let cluster: PostgresCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
});

describe.skipIf(pgSkip !== undefined).each([1, 2] as const)(`two servers on one postgres:// database, compat %i${pgSkip ? ` (skipped: ${pgSkip})` : ""}`, (compat) => {
  it("a user signed up on A signs in on B, A's token authenticates on B, a DEFINE FIELD on A applies to a signup on B", async () => {
    cluster ??= await startPostgres();
    // a database of its own per compat: their schemas differ
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE nodes${compat}`);
    await admin.end();
    const url = cluster.url.replace(/\/postgres$/, `/nodes${compat}`);
    const dir = mkdtempSync(join(tmpdir(), "surql-auth-nodes-"));
    dirs.push(dir);
    const schemaFile = join(dir, "schema.surql");
    writeFileSync(schemaFile, SCHEMA[compat]);

    const a = await startCli(compat, url, schemaFile);
    const b = await startCli(compat, url, schemaFile);
    const token = await sign(a.base, "signup", credentials(compat, "ann@x"));
    expect(token).toBeDefined();
    expect(await sign(b.base, "signin", credentials(compat, "ann@x"))).toBeDefined();
    expect(await queryAs(b.base, token!, "RETURN $auth.email")).toBe("ann@x");
    // the unique index is shared: the same email cannot sign up again on B
    expect(await sign(b.base, "signup", credentials(compat, "ann@x"))).toBeUndefined();
    // a DEFINE FIELD made on A applies to a signup on B (B may see it up to a catalog poll late)
    const root = await sign(a.base, "signin", { user: "root", pass: "root" });
    await queryAs(a.base, root!, "DEFINE FIELD age ON user TYPE int DEFAULT 7");
    for (let n = 0; ; n++) {
      const late = await sign(b.base, "signup", credentials(compat, `late${n}@x`));
      expect(late).toBeDefined();
      if ((await queryAs(b.base, late!, "RETURN $auth.age")) === 7) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const s of [a, b]) {
      s.child.kill("SIGTERM");
      await s.exited;
      expect(s.child.exitCode).toBe(0);
    }
  }, 120_000);
});
