// The admin console in a real browser: the real server with examples/schema-v2.surql, root signs in, two record users
// sign up over fetch, a query run as one of them shows only its own row; screenshots go to test-artifacts/console/.

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { hasChromium, launchBrowser, CHROMIUM } from "./browser.js";

const ARTIFACTS = "test-artifacts/console";

if (!hasChromium) console.warn(`SKIPPED: the admin console browser test needs chromium at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)("admin console in chromium", () => {
  let server: SurrealServer;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, ["console/build.mjs"]);
    mkdirSync(ARTIFACTS, { recursive: true });
    const db = await SurqlAuth.open({ compat: 2, root: { user: "root", pass: "root" } });
    await db.importText(readFileSync("examples/schema-v2.surql", "utf8"));
    const listening = await db.listen("127.0.0.1", 0);
    server = listening.server;
    base = `http://127.0.0.1:${listening.port}`;
    for (const [name, email, password] of [["Ann", "ann@example.com", "pw-ann"], ["Bob", "bob@example.com", "pw-bob"]]) {
      const res = await fetch(`${base}/signup`, {
        method: "POST",
        headers: { accept: "application/json" },
        body: JSON.stringify({ NS: "app", DB: "app", AC: "account", name, email, password }),
      });
      expect(res.status).toBe(200);
    }
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(8_000);
    // a CSP violation, a script error or a missing file shows up here (400 / 401: the refused signins this test asks for)
    page.on("console", (m) => m.type() === "error" && !/status of 40[01]/.test(m.text()) && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function runQuery(p: Page, text: string): Promise<string> {
    await p.locator("#query").fill(text);
    await p.locator("#run").click();
    await p.locator("#ran-as, #query-out .error").first().waitFor();
    return p.locator("#query-out").innerText();
  }

  it("signs in as root and picks the example's namespace and database", async () => {
    await page.goto(base);
    await page.locator("#user").fill("root");
    await page.locator("#pass").fill("root");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("#signed-in").waitFor();
    expect(await page.locator("#signed-in").innerText()).toContain("root");
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

  it("runs a query as root (every row) and as a record user signed in through `account` (only its own row)", async () => {
    await page.locator("#tab-query").click();
    const asRoot = await runQuery(page, "SELECT name FROM user ORDER BY name;");
    expect(asRoot).toContain("Ann");
    expect(asRoot).toContain("Bob");
    await page.locator("#runas").selectOption("record-signin");
    await page.locator("#runas-record-access").selectOption("account");
    await page.locator("#runas-vars").fill(JSON.stringify({ email: "ann@example.com", password: "pw-ann" }));
    const asAnn = await runQuery(page, "SELECT name, email FROM user;");
    expect(asAnn).toContain("Ran as the record user signed in through account");
    expect(asAnn).toContain("ann@example.com");
    expect(asAnn).not.toContain("Bob");
    await page.screenshot({ path: `${ARTIFACTS}/query-as-record-user.png`, fullPage: true });
  });

  it("shows the server's error for a wrong record signin and for a failing statement", async () => {
    await page.locator("#runas-vars").fill(JSON.stringify({ email: "ann@example.com", password: "wrong" }));
    expect(await runQuery(page, "SELECT * FROM user;")).toContain("No record was returned");
    await page.locator("#runas").selectOption("me");
    const out = await runQuery(page, "THROW 'boom';");
    expect(out).toContain("ERR");
    expect(out).toContain("boom");
  });

  it("runs as a database role through the example's TYPE JWT access `api`, with its key typed in", async () => {
    await page.locator("#runas").selectOption("role");
    await page.locator("#runas-jwt-access").selectOption("api");
    await page.locator("#runas-role").selectOption("Viewer");
    await page.locator("#runas-key").fill("a-long-shared-secret-for-hs512");
    const out = await runQuery(page, "RETURN $session.tk.RL; SELECT count() FROM user GROUP ALL; DEFINE TABLE nope;");
    expect(out).toContain("Ran as role Viewer through access api");
    expect(out).toMatch(/"count": 2/);
    expect(await page.locator(".result").nth(2).getAttribute("class")).toContain("err");
    expect(out).toContain("Not enough permissions");
    await page.screenshot({ path: `${ARTIFACTS}/query-as-role.png`, fullPage: true });
  });

  it("ran without script errors or CSP violations", () => {
    expect(problems).toEqual([]);
  });
});
