// The admin console in a real browser (playwright-core driving Debian's chromium): the real server with the example
// schema, root signs in, two record users sign up over fetch, a query run as one of them shows only its own row.
// Screenshots are kept in test-artifacts/console/.

import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { SurrealServer } from "../../src/server/index.js";
import { CHROMIUM, hasChromium, launchBrowser } from "./browser.js";
import { jsonRpcSocket } from "../server/clients.js";
import { asRecordUser, runQuery, signIn, startExample } from "./example.js";

const ARTIFACTS = "test-artifacts/console";

if (!hasChromium) console.warn(`SKIPPED: the admin console browser tests need chromium at ${CHROMIUM} (apt-get install -y chromium)`);

for (const compat of [2, 1] as const)
  describe.skipIf(!hasChromium)(`admin console in chromium, compat ${compat}`, () => {
    let server: SurrealServer;
    let base: string;
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      ({ server, base } = await startExample(compat));
      browser = await launchBrowser();
      page = await browser.context.newPage();
      page.setDefaultTimeout(8_000);
      // a CSP violation, a script error or a missing file shows up here (400 / 401 / 403: the refusals asked for below)
      page.on("console", (m) => m.type() === "error" && !/status of 40[013]/.test(m.text()) && problems.push(m.text()));
      page.on("pageerror", (e) => problems.push(e.message));
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it("signs in as root and picks the example's namespace and database", async () => {
      await signIn(page, base, "root", "root");
      expect(await page.locator("#signed-in").innerText()).toBe("Signed in as root (root, OWNER)");
      expect(await page.locator("#ns").inputValue()).toBe("app");
      expect(await page.locator("#db").inputValue()).toBe("app");
    });

    it("lists tables with row counts and users with roles", async () => {
      await page.locator("#tab-tables").click();
      const row = page.locator("#tables tbody tr", { hasText: "user" });
      await row.waitFor();
      expect(await row.locator("td.num").innerText()).toBe("2");
      await page.locator("#tab-users").click();
      await page.locator("#users tbody tr").first().waitFor();
      const users = await page.locator("#users").innerText();
      expect(users).toMatch(/reader\s+VIEWER/);
      expect(users).toMatch(/ops\s+EDITOR/);
      expect(users).not.toContain("$argon2");
    });

    it("shows definitions as INFO FOR DB has them", async () => {
      await page.locator("#tab-definitions").click();
      await page.locator("#info-out details").first().waitFor();
      const info = await page.locator("#info-out").innerText();
      expect(info).toContain(compat === 1 ? "DEFINE SCOPE account" : "DEFINE ACCESS account ON DATABASE TYPE RECORD");
      expect(info).toContain("DEFINE TABLE user");
    });

    it("runs a query as root (every row) and as a record user signed in through `account` (only its own row)", async () => {
      await page.locator("#tab-query").click();
      const asRoot = await runQuery(page, "SELECT name FROM user ORDER BY name;");
      expect(asRoot).toContain("Ann");
      expect(asRoot).toContain("Bob");
      await asRecordUser(page, "ann@example.com", "pw-ann");
      const asAnn = await runQuery(page, "SELECT name, email FROM user;");
      expect(asAnn).toContain("Ran as the record user signed in through account");
      expect(asAnn).toContain("ann@example.com");
      expect(asAnn).not.toContain("Bob");
      // the record user's token is kept: a second run uses the same one (no second signin)
      const jti = async () => (await runQuery(page, "RETURN $token.jti;")).match(/"([0-9a-f-]{36})"/)?.[1];
      const first = await jti();
      expect(first).toBeDefined();
      expect(await jti()).toBe(first);
      await page.screenshot({ path: `${ARTIFACTS}/v${compat}-query-as-record-user.png`, fullPage: true });
    });

    it("shows the server's error for a wrong record signin and for a failing statement", async () => {
      await page.locator("#runas-vars").fill(JSON.stringify({ email: "ann@example.com", password: "wrong" }));
      expect(await runQuery(page, "SELECT * FROM user;")).toContain("No record was returned");
      await page.locator("#runas").selectOption("me");
      const out = await runQuery(page, "THROW 'boom';");
      expect(out).toContain("ERR");
      expect(out).toContain("boom");
    });

    it("runs as a database role through the example's JWT access / token `api`, with its key typed in", async () => {
      await page.locator("#runas").selectOption("role");
      await page.locator("#runas-jwt-access").selectOption("api");
      await page.locator("#runas-role").selectOption("Viewer");
      await page.locator("#runas-key").fill("a-long-shared-secret-for-hs512");
      const out = await runQuery(page, "RETURN $session.tk.RL; SELECT count() FROM user GROUP ALL; DEFINE TABLE nope;");
      expect(out).toContain("Ran as role Viewer through access api");
      expect(out).toMatch(/"count": 2/);
      expect(await page.locator(".result").nth(2).getAttribute("class")).toContain("err");
      expect(out).toContain("Not enough permissions");
      await page.screenshot({ path: `${ARTIFACTS}/v${compat}-query-as-role.png`, fullPage: true });
    });

    it.runIf(compat === 2)("runs as a record id for a record access method whose JWT key the admin holds", async () => {
      const key = "a-console-test-key-long-enough-for-hs512";
      await page.locator("#runas").selectOption("me");
      await runQuery(page, `DEFINE ACCESS byid ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY '${key}' DURATION FOR TOKEN 5m;`);
      const annId = (await runQuery(page, "SELECT VALUE id FROM user WHERE email = 'ann@example.com';")).match(/"(user:[^"]+)"/)?.[1];
      expect(annId).toBeDefined();
      // the access methods are read when the panel opens
      await page.locator("#tab-tables").click();
      await page.locator("#tab-query").click();
      await page.locator("#runas").selectOption("record-id");
      await page.locator("#runas-record-access").selectOption("byid");
      await page.locator("#runas-id").fill(annId!);
      await page.locator("#runas-key").fill(key);
      const out = await runQuery(page, "SELECT name FROM user; RETURN $auth.id;");
      expect(out).toContain(`Ran as record ${annId} through access byid`);
      expect(out).toContain("Ann");
      expect(out).not.toContain("Bob");
      await page.locator("#runas-key").fill("not-the-key");
      expect(await runQuery(page, "SELECT name FROM user;")).toContain("There was a problem with authentication (the server refused the token");
    });

    it("lists a record user's WebSocket session and kills it: its next call answers that the session has expired", async () => {
      const { ws, rpc } = await jsonRpcSocket(`${base.replace("http", "ws")}/rpc`);
      try {
        const signin = await rpc("signin", [{ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", email: "bob@example.com", password: "pw-bob" }]);
        expect(signin.error).toBeUndefined();
        await page.locator("#tab-sessions").click();
        const row = page.locator("#sessions tbody tr", { hasText: "account" });
        await row.waitFor();
        expect(await row.innerText()).toMatch(/user:/);
        await page.screenshot({ path: `${ARTIFACTS}/v${compat}-sessions.png`, fullPage: true });
        await row.locator("button.kill").click();
        await page.locator("#sessions-out", { hasText: "No live WebSocket sessions" }).waitFor();
        expect((await rpc("query", ["RETURN 1"])).error?.message).toContain("The session has expired");
      } finally {
        ws.close();
      }
    });

    it("explains a query as a record user: every decision in a table, and nothing written", async () => {
      await page.locator("#tab-query").click();
      await page.locator("#runas").selectOption("me");
      const annId = (await runQuery(page, "SELECT VALUE id FROM user WHERE email = 'ann@example.com';")).match(/"(user:[^"]+)"/)?.[1];
      expect(annId).toBeDefined();
      await page.locator("#tab-explain").click();
      await page.locator("#explain-as").fill(`record account as ${annId}`);
      await page.locator("#explain-query").fill("SELECT name FROM user; DELETE user;");
      await page.locator("#explain-run").click();
      await page.locator("#explain-decisions").waitFor();
      const rows = await page.locator("#explain-decisions tbody tr").allInnerTexts();
      expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^1\\s+allowed\\s+select\\s+table\\s+user\\s+${annId}\\s+WHERE id = \\$auth.id\\s+where-true\\s+\\$auth = ${annId}`)));
      expect(rows.filter((r) => /^2\s+denied\s+delete\s+table\s+user/.test(r))).toHaveLength(1);
      expect(await page.locator("#explain-summary").innerText()).toMatch(/denied \(a dry run: nothing was written\)/);
      await page.screenshot({ path: `${ARTIFACTS}/v${compat}-explain.png`, fullPage: true });
      await page.locator("#explain-as").fill("record account signin { email: 'x' }");
      await page.locator("#explain-run").click();
      expect(await page.locator("#explain-out .error").innerText()).toContain("no user password, signup, signin or token");
      await page.locator("#tab-query").click();
      await page.locator("#runas").selectOption("me");
      expect(await runQuery(page, "SELECT count() FROM user GROUP ALL;")).toMatch(/"count": 2/);
    });

    it("signs in as a database user: namespace and database fixed, its role shown", async () => {
      await page.locator("#signout").click();
      await signIn(page, base, "reader", "reader-pass", "database");
      expect(await page.locator("#signed-in").innerText()).toBe("Signed in as reader (database app/app, VIEWER)");
      expect(await page.locator("#ns").isDisabled()).toBe(true);
      expect(await page.locator("#db").isDisabled()).toBe(true);
      expect(await runQuery(page, "SELECT name FROM user ORDER BY name;")).toMatch(/Ann[\s\S]*Bob/);
      await page.locator("#tab-sessions").click();
      expect(await page.locator("#sessions-out .error").innerText()).toContain("Not enough permissions");
    });

    it("ran without script errors or CSP violations", () => {
      expect(problems).toEqual([]);
    });
  });
