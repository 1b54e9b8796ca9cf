// CLI `export` / `import`: argument parsing and the HTTP headers they send.

import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../../src/cli/args.js";
import { transferHeaders, transferUrl } from "../../src/cli/export.js";

describe("export / import arguments", () => {
  it("parse like `surreal export` / `surreal import`", () => {
    expect(parseCli(["export", "--endpoint", "http://h:1", "-u", "root", "-p", "pw", "--ns", "n", "--db", "d", "out.surql"], {})).toEqual({
      command: "export", endpoint: "http://h:1", user: "root", pass: "pw", ns: "n", db: "d", authLevel: "root", file: "out.surql",
    });
    expect(parseCli(["export", "--ns", "n", "--db", "d"], {})).toMatchObject({ endpoint: "http://127.0.0.1:8000", file: undefined, user: undefined });
    expect(parseCli(["import", "--ns", "n", "--db", "d", "--auth-level", "database", "in.surql"], { SURQL_AUTH_USER: "u", SURQL_AUTH_PASS: "p" })).toMatchObject({ command: "import", user: "u", pass: "p", authLevel: "database", file: "in.surql" });
  });

  it("rejects what cannot work", () => {
    expect(() => parseCli(["import", "--ns", "n", "--db", "d"], {})).toThrow(/^import needs a FILE$/);
    expect(() => parseCli(["export", "--ns", "n"], {})).toThrow(UsageError);
    expect(() => parseCli(["export", "--ns", "n", "--db", "d", "--endpoint", "ws://h:1"], {})).toThrow(UsageError);
    expect(() => parseCli(["export", "--ns", "n", "--db", "d", "-u", "root"], {})).toThrow(/^--user and --pass go together$/);
  });

  it("send Basic auth with the level headers, and surreal-ns / surreal-db", () => {
    const opts = parseCli(["export", "--ns", "n", "--db", "d", "-u", "u", "-p", "p", "--auth-level", "namespace"], {});
    if (opts.command !== "export") throw new Error("not export");
    expect(transferHeaders(opts)).toEqual({ "surreal-ns": "n", "surreal-db": "d", authorization: `Basic ${Buffer.from("u:p").toString("base64")}`, "surreal-auth-ns": "n" });
    expect(transferUrl("http://h:1", "export").href).toBe("http://h:1/export");
    expect(transferUrl("http://h:1/rpc", "import").href).toBe("http://h:1/import");
  });
});
