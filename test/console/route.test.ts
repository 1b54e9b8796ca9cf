// GET / and /console/<file>: the built console under a strict CSP; nothing else is reachable through that route.

import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { CONSOLE_CSP } from "../../src/server/routes/console.js";

describe("console route", () => {
  let server: SurrealServer;
  let base: string;

  beforeAll(async () => {
    execFileSync(process.execPath, ["console/build.mjs"]);
    const db = await SurqlAuth.open({ compat: 2, root: { user: "root", pass: "root" } });
    const listening = await db.listen("127.0.0.1", 0);
    server = listening.server;
    base = `http://127.0.0.1:${listening.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("GET / is the console page with a strict CSP, not a redirect", async () => {
    const res = await fetch(`${base}/`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain("unsafe");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = await res.text();
    // every script is a file from this origin: no inline code, no CDN
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script defer src="/console/app.js">']);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("serves the bundle and its stylesheet, small and with no outside address", async () => {
    const js = await fetch(`${base}/console/app.js`);
    expect([js.status, js.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    const body = await js.text();
    expect(body.length).toBeLessThan(40_000);
    expect(body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    const css = await fetch(`${base}/console/app.css`);
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
  });

  it("answers 404 for anything that is not a built file, and 405 for other methods", async () => {
    for (const path of ["/console/nope.js", "/console/..%2F..%2Fpackage.json", "/console/.app.js", "/console/build.mjs", "/console/", "/console/a/app.js"])
      expect([path, (await fetch(`${base}${path}`)).status]).toEqual([path, 404]);
    expect((await fetch(`${base}/`, { method: "POST" })).status).toBe(405);
    const head = await fetch(`${base}/`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-security-policy"), await head.text()]).toEqual([200, CONSOLE_CSP, ""]);
  });
});
