import { describe, expect, expectTypeOf, it } from "vitest";
import type { AuthService } from "../../src/server/types.js";
import { Iam } from "../../src/iam/index.js";
import { newSession } from "../../src/exec/session.js";
import { FakeEngine } from "./fake-engine.js";

describe("Iam facade", () => {
  it("is the AuthService the server drives", () => {
    expectTypeOf<Iam>().toMatchTypeOf<AuthService>();
    const iam: AuthService = new Iam(new FakeEngine(2));
    expect(typeof iam.signin).toBe("function");
  });

  it("takes compat and clock from the engine unless given, and stops listening on close", async () => {
    const engine = new FakeEngine(1);
    const iam = new Iam(engine);
    expect(iam.compat).toBe(1);
    expect(new Iam(engine, { compat: 2 }).compat).toBe(2);
    await engine.defineUser("ROOT", "root", { password: "pw" });
    const { token } = await iam.signin(newSession(), { user: "root", pass: "pw" });
    await iam.authenticate(newSession(), token);
    expect(iam.cachedTokens).toBe(1);
    iam.close();
    engine.remove("user", "ROOT", "root");
    expect(iam.cachedTokens).toBe(1); // no longer listening; the stale entry is still refused on use:
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow("There was a problem with authentication");
  });
});
