// checkPermissions (surql-auth/testing): it finds planted leaks in a schema as a shrunk .surql reproduction, and holds
// on the rules that are right (the example schemas of both compats and the blog the leaks are planted in).
import { describe, expect, it } from "vitest";
import { assertPermissions, checkPermissions } from "../../src/testing/index.js";

const schema = (name: string): string => `test/testing/schemas/${name}.surql`;
/** The blog's public data: published posts, and a profile's owner and bio (its phone is private). */
const PUBLIC = { post: "published = true", profile: { fields: ["owner", "bio"] } } as const;

describe("checkPermissions", () => {
  it("finds a select rule that lets every signed-in user read every post, as a reproduction that replays it", async () => {
    const r = await checkPermissions(schema("leak-select"), { numRuns: 60, seed: 3, public: PUBLIC, shrinks: 8 });
    expect(r.ok).toBe(false);
    const { surql, violations } = r.counterexample!;
    // the schema, the victim's sign-up and unpublished post, then the attacker's statements
    expect(surql).toContain("FOR select WHERE published = true OR $auth.id != NONE");
    expect(surql).toMatch(/-- signup \{ AC: 'account', DB: 'app', NS: 'app', email: 'SECRET_email_\w+@example.com'/);
    expect(surql).toMatch(/CREATE post CONTENT \{ author: user:\w+, published: false, title: 'SECRET_title_\w+' \};/);
    expect(surql).toMatch(/-- then as the record user user:\w+:\n/);
    expect(violations.join("\n")).toMatch(/the attacker received SECRET_title_\w+/);
  }, 30_000);

  it("finds a field without a field permission on a public table", async () => {
    const r = await checkPermissions(schema("leak-field"), { numRuns: 60, seed: 1, public: PUBLIC });
    expect(r.ok).toBe(false);
    expect(r.counterexample!.violations.join("\n")).toMatch(/the attacker received SECRET_phone_\w+/);
    // a public field is no leak: only the phone is reported
    expect(r.counterexample!.violations.join("\n")).not.toMatch(/received SECRET_bio/);
  }, 30_000);

  it("finds a role a user may give itself (UPDATE $auth SET role = 'admin', then read)", async () => {
    const r = await checkPermissions(schema("leak-role"), { numRuns: 60, seed: 3, public: PUBLIC, shrinks: 8 });
    expect(r.ok).toBe(false);
    expect(r.counterexample!.surql).toContain("UPDATE $auth SET role = 'admin'");
  }, 30_000);

  it("assertPermissions throws the reproduction", async () => {
    await expect(assertPermissions(schema("leak-field"), { numRuns: 60, seed: 1, public: PUBLIC })).rejects.toThrow(/-- then as the record user user:\w+:[\s\S]*-- violations:/);
  }, 30_000);

  it("holds on the blog whose rules are right", async () => {
    const r = await checkPermissions(schema("blog"), { numRuns: 12, public: PUBLIC });
    expect({ ok: r.ok, seed: r.seed, report: r.counterexample?.report }).toEqual({ ok: true, seed: r.seed, report: undefined });
  }, 30_000);

  it("holds on examples/schema-v2.surql (compat 2) and examples/schema-v1.surql (compat 1)", async () => {
    for (const [file, compat] of [["examples/schema-v2.surql", 2], ["examples/schema-v1.surql", 1]] as const) {
      const r = await checkPermissions(file, { compat, numRuns: 8 });
      expect({ file, ok: r.ok, seed: r.seed, report: r.counterexample?.report }).toEqual({ file, ok: true, seed: r.seed, report: undefined });
    }
  }, 30_000);

  it("a refused sign-up or an ambiguous access method is an error, not a counterexample", async () => {
    await expect(checkPermissions("examples/schema-v2.surql", { victim: { vars: { name: "v", email: "not-an-email", password: "p" } }, numRuns: 1 })).rejects.toThrow(/the victim could not sign up/);
    await expect(checkPermissions("examples/schema-v2.surql", { access: "nope", numRuns: 1 })).rejects.toThrow(/no record access methods named nope/);
  }, 30_000);
});
