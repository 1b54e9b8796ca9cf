import { describe, expect, it } from "vitest";
import { connectAs, formatIdentity, IdentitySpecError, parseIdentity, rootConnection, type IdentitySpec } from "../../src/cli/identity.js";
import { SurqlAuth } from "../../src/index.js";
import { RecordId } from "../../src/value/types.js";

const specError = (text: string): IdentitySpecError => {
  try {
    parseIdentity(text);
  } catch (e) {
    if (e instanceof IdentitySpecError) return e;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
};

describe("identity specs: parse", () => {
  it("reads every form", () => {
    expect(parseIdentity("root")).toEqual({ kind: "root" });
    expect(parseIdentity(" anonymous ")).toEqual({ kind: "anonymous" });
    expect(parseIdentity("guest")).toEqual({ kind: "anonymous" });
    expect(parseIdentity("viewer@db")).toEqual({ kind: "role", role: "VIEWER", level: "db" });
    expect(parseIdentity("Editor@namespace")).toEqual({ kind: "role", role: "EDITOR", level: "ns" });
    expect(parseIdentity("owner@root")).toEqual({ kind: "role", role: "OWNER", level: "root" });
    expect(parseIdentity("user reader@db reader-pass")).toEqual({ kind: "user", name: "reader", level: "db", password: "reader-pass" });
    expect(parseIdentity(`user admin@root "a pass with spaces"`)).toEqual({ kind: "user", name: "admin", level: "root", password: "a pass with spaces" });
    expect(parseIdentity("record account as user:ann")).toEqual({ kind: "bound", access: "account", record: new RecordId("user", "ann") });
    expect(parseIdentity("record account as user:1")).toEqual({ kind: "bound", access: "account", record: new RecordId("user", 1n) });
    expect(parseIdentity("token abc.def.ghi")).toEqual({ kind: "token", token: "abc.def.ghi" });
    const rec = parseIdentity(`record account signin { email: "ann@example.com", pass: "p" }`);
    expect(rec).toMatchObject({ kind: "record", access: "account", via: "signin", varsText: `{ email: "ann@example.com", pass: "p" }` });
    expect(rec.kind === "record" && rec.vars.kind).toBe("Object");
    expect(parseIdentity("record account signup {}")).toMatchObject({ kind: "record", via: "signup" });
  });

  it("formats back to a spec that reads the same (passwords and tokens left out)", () => {
    for (const text of ["root", "anonymous", "viewer@db", "owner@root", "editor@ns", "record account as user:ann", `record account signin { email: "a@b.c" }`]) {
      const spec = parseIdentity(text);
      expect(parseIdentity(formatIdentity(spec))).toEqual(spec);
    }
    expect(formatIdentity(parseIdentity("user reader@db s3cret"))).toBe("user reader@db");
    expect(formatIdentity(parseIdentity("token eyJhbGciOiJIUzUxMiJ9.e30.sig"))).not.toContain("sig");
  });

  it("says what is wrong and at which column", () => {
    expect(specError("nobody")).toMatchObject({ column: 1 });
    expect(specError("nobody").message).toContain("unknown identity 'nobody'");
    expect(specError("viewer@table")).toMatchObject({ column: 8 });
    expect(specError("viewer@table").message).toContain("unknown level 'table'");
    // the variables must be an object; a syntax error points into them
    expect(specError(`record account signin "x"`)).toMatchObject({ column: 23 });
    const bad = specError(`record account signin { email: }`);
    expect(bad.column).toBeGreaterThanOrEqual(23);
    expect(specError("record account as 12")).toMatchObject({ column: 19 });
  });
});

const SCHEMA = (compat: 1 | 2) => `
DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE USER reader ON DATABASE PASSWORD 'reader-pass' ROLES VIEWER;
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
${
  compat === 1
    ? "DEFINE SCOPE account SESSION 1h SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email);"
    : "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) DURATION FOR SESSION 1h;"
}`;

/** Who the connection is: `$auth` (record users) or the session's level and roles. */
async function whoami(auth: SurqlAuth, spec: IdentitySpec): Promise<unknown> {
  const conn = await connectAs(auth, spec, { ns: "app", db: "app" });
  const a = await conn.query("SELECT VALUE email FROM $auth").then(([r]) => (r?.status === "OK" ? r.result : r?.status), (e: Error) => e.message);
  return { level: conn.session.actor.level, roles: conn.session.actor.roles, ns: conn.session.ns, db: conn.session.db, auth: a };
}

describe.each([1, 2] as const)("identity specs: connectAs (compat %s)", (compat) => {
  it("signs a connection in as each kind", async () => {
    const auth = await SurqlAuth.open({ compat, throttle: { enabled: false }, sessionSyncMs: 0 });
    try {
      await auth.importText(SCHEMA(compat));
      await rootConnection(auth, { ns: "app", db: "app" }).query("CREATE user:ann SET email = 'ann@example.com'");
      const record = compat === 1 ? "Scope" : "Record";
      expect(await whoami(auth, parseIdentity("root"))).toMatchObject({ level: "Root", roles: ["OWNER"], ns: "app", db: "app" });
      expect(await whoami(auth, parseIdentity("anonymous"))).toMatchObject({ level: "No", ns: "app", db: "app", auth: expect.stringContaining("Not enough permissions") });
      expect(await whoami(auth, parseIdentity("viewer@db"))).toMatchObject({ level: "Database", roles: ["VIEWER"], ns: "app", db: "app" });
      // a second use of the same role signs in as the same synthetic user
      expect(await whoami(auth, parseIdentity("viewer@db"))).toMatchObject({ level: "Database" });
      expect(await whoami(auth, parseIdentity("editor@ns"))).toMatchObject({ level: "Namespace", roles: ["EDITOR"], ns: "app", db: "app" });
      expect(await whoami(auth, parseIdentity("owner@root"))).toMatchObject({ level: "Root", roles: ["OWNER"] });
      expect(await whoami(auth, parseIdentity("user reader@db reader-pass"))).toMatchObject({ level: "Database", roles: ["VIEWER"] });
      expect(await whoami(auth, parseIdentity(`record account signin { email: "ann@example.com" }`))).toMatchObject({ level: record, auth: ["ann@example.com"] });
      expect(await whoami(auth, parseIdentity(`record account signup { email: "bob@example.com" }`))).toMatchObject({ level: record, auth: ["bob@example.com"] });
      expect(await whoami(auth, parseIdentity("record account as user:ann"))).toMatchObject({ level: record, auth: ["ann@example.com"] });
      // a token from a signin opens the same identity elsewhere
      const token = await (await connectAs(auth, parseIdentity("anonymous"), { ns: "app", db: "app" })).signin({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", email: "ann@example.com" });
      expect(await whoami(auth, parseIdentity(`token ${token}`))).toMatchObject({ level: record, auth: ["ann@example.com"] });
      // the bound session carries the token claims and the access's session expiry
      const bound = await connectAs(auth, parseIdentity("record account as user:ann"), { ns: "app", db: "app" });
      expect(bound.session.rd).toEqual(new RecordId("user", "ann"));
      expect(bound.session.exp).toBeDefined();
      expect((bound.session.tk as Record<string, unknown>)["ID"]).toBe("user:ann");
    } finally {
      auth.iam.close();
    }
  });

  it("refuses wrong credentials with SurrealDB's error", async () => {
    const auth = await SurqlAuth.open({ compat, throttle: { enabled: false }, sessionSyncMs: 0 });
    try {
      await auth.importText(SCHEMA(compat));
      await expect(connectAs(auth, parseIdentity("user reader@db wrong"), { ns: "app", db: "app" })).rejects.toMatchObject({ cause: { code: "InvalidAuth" } });
      await expect(connectAs(auth, parseIdentity(`record account signin { email: "nobody@example.com" }`), { ns: "app", db: "app" })).rejects.toMatchObject({ cause: { code: "NoRecordFound" } });
      await expect(connectAs(auth, parseIdentity("record nosuch as user:ann"), { ns: "app", db: "app" })).rejects.toThrow(compat === 1 ? /scope does not exist/ : /access method does not exist/);
    } finally {
      auth.iam.close();
    }
  });
});
