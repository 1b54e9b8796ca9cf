// The CLI as a user meets it: every command answers --help, usage errors are one line and a hint, is-ready.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { COMMANDS } from "../../src/cli/usage.js";
import { runCli } from "./run.js";

// each run starts node + tsx (seconds on a loaded machine)
const SLOW = 180_000;

describe("surql-auth help", () => {
  it("every command answers --help, -h and help COMMAND with its own usage, exit 0", async () => {
    const runs = await Promise.all(COMMANDS.map((c) => runCli([c, "--help"])));
    runs.forEach((r, i) => {
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toMatch(COMMANDS[i] === "help" ? /^usage: surql-auth <command>/ : new RegExp(`^usage: surql-auth ${COMMANDS[i]}\\b`));
    });
    const [short, word, sessions, sessionsWord] = await Promise.all([runCli(["import", "-h"]), runCli(["help", "import"]), runCli(["sessions", "--help"]), runCli(["help", "sessions"])]);
    expect(short).toEqual({ code: 0, stdout: runs[COMMANDS.indexOf("import")]!.stdout, stderr: "" });
    expect(word).toEqual(short);
    expect([sessions.code, sessions.stderr]).toEqual([0, ""]);
    expect(sessions.stdout).toMatch(/^usage: surql-auth sessions list/);
    expect(sessionsWord).toEqual(sessions);
  }, SLOW);

  it("a usage error prints one line and a hint to the command's --help, exit 2", async () => {
    const [flag, command] = await Promise.all([runCli(["start", "--frobnicate"]), runCli(["explode"])]);
    expect(flag).toEqual({ code: 2, stdout: "", stderr: "surql-auth: Unknown option '--frobnicate'\ntry 'surql-auth start --help'\n" });
    expect(command).toEqual({ code: 2, stdout: "", stderr: "surql-auth: unknown command 'explode'\ntry 'surql-auth --help'\n" });
  }, SLOW);
});

describe("surql-auth is-ready", () => {
  let server: SurrealServer;
  let base: string;
  beforeAll(async () => {
    const db = await SurqlAuth.open();
    const l = await db.listen("127.0.0.1", 0);
    server = l.server;
    base = `http://127.0.0.1:${l.port}`;
  });
  afterAll(() => server.close());

  it("exits 0 when the server answers (http:// or ws:// endpoint, with or without /rpc), 1 when nothing listens", async () => {
    const [up, ws] = await Promise.all([runCli(["is-ready", "--endpoint", base]), runCli(["is-ready", "--conn", `${base.replace("http", "ws")}/rpc`])]);
    expect(up).toEqual({ code: 0, stdout: "OK\n", stderr: "" });
    expect(ws.code).toBe(0);
    await server.close();
    const down = await runCli(["is-ready", "-e", base]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^surql-auth: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
  }, SLOW);
});
