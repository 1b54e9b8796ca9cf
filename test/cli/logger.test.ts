// The CLI logger: levels, text and JSON layouts, redaction of secret-looking fields.

import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/cli/logger.js";

describe("createLogger", () => {
  it("text: time, level, target, message and the extra as JSON; lines above the level are dropped", () => {
    const lines: string[] = [];
    const log = createLogger("info", { write: (l) => lines.push(l) });
    log.debug("hidden");
    log.info("http request", { method: "GET", status: 200 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO  surql_auth: http request \{"method":"GET","status":200\}$/);
  });

  it("json: one object per line with timestamp, level, fields (message first) and target", () => {
    const lines: string[] = [];
    const log = createLogger("debug", { format: "json", write: (l) => lines.push(l) });
    log.debug("audit", { event: "signin", message: "not the message" });
    log.error("request failed", new Error("boom"));
    log.warn("plain");
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ level: "DEBUG", target: "surql_auth", fields: { message: "audit", event: "signin" } });
    expect(Object.keys(parsed[0]!)).toEqual(["timestamp", "level", "fields", "target"]);
    expect(parsed[1]).toMatchObject({ level: "ERROR", fields: { message: "request failed", detail: { name: "Error", message: "boom" } } });
    expect(parsed[2]).toMatchObject({ level: "WARN", fields: { message: "plain" } });
  });

  it("redacts secret-looking keys at any depth in both layouts", () => {
    for (const format of ["text", "json"] as const) {
      const lines: string[] = [];
      createLogger("info", { format, write: (l) => lines.push(l) }).info("x", { user: "root", pass: "p4ss", nested: { refresh_token: "r3fresh", authorization: "Basic abc" } });
      expect(lines[0]).toContain("root");
      expect(lines[0]).not.toMatch(/p4ss|r3fresh|Basic abc/);
    }
  });
});
