// The real server with the example schema of one compat, two record users signed up over fetch, and the page helpers.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

export const USERS = [
  { name: "Ann", email: "ann@example.com", password: "pw-ann" },
  { name: "Bob", email: "bob@example.com", password: "pw-bob" },
] as const;

/** Build the console, start the server on 127.0.0.1 with examples/schema-v<compat>.surql, sign up Ann and Bob. */
export async function startExample(compat: 1 | 2): Promise<{ server: SurrealServer; base: string }> {
  execFileSync(process.execPath, ["console/build.mjs"]);
  const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
  await db.importText(readFileSync(`examples/schema-v${compat}.surql`, "utf8"));
  const { server, port } = await db.listen("127.0.0.1", 0);
  const base = `http://127.0.0.1:${port}`;
  for (const user of USERS) {
    const res = await fetch(`${base}/signup`, {
      method: "POST",
      headers: { accept: "application/json" },
      body: JSON.stringify({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", ...user }),
    });
    expect(res.status).toBe(200);
  }
  return { server, base };
}

/** Sign in through the console's form; `ns` / `db` make it a namespace / database user. */
export async function signIn(page: Page, base: string, user: string, pass: string, level: "root" | "namespace" | "database" = "root"): Promise<void> {
  await page.goto(base);
  await page.locator("#level").selectOption(level);
  if (level !== "root") await page.locator("#signin-ns").fill("app");
  if (level === "database") await page.locator("#signin-db").fill("app");
  await page.locator("#user").fill(user);
  await page.locator("#pass").fill(pass);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("#signed-in").waitFor();
}

/** Type a query, run it, and return what the output area shows once the answer (or an error) is there. */
export async function runQuery(page: Page, text: string): Promise<string> {
  await page.locator("#query").fill(text);
  await page.locator("#run").click();
  await page.locator("#ran-as, #query-out .error").first().waitFor();
  return page.locator("#query-out").innerText();
}

/** Run as a record user signed in through `account` with a user's email and password. */
export async function asRecordUser(page: Page, email: string, password: string): Promise<void> {
  await page.locator("#runas").selectOption("record-signin");
  await page.locator("#runas-record-access").selectOption("account");
  await page.locator("#runas-vars").fill(JSON.stringify({ email, password }));
}
