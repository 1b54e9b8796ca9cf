// The audit sink: event shape, identity from a session or an attempt, secret hygiene, writers, the audit file.

import { mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newSession } from "../../src/exec/session.js";
import { Audit, attemptedIdentity, auditFileWriter, credentialSecrets, scrub, type AuditEvent } from "../../src/iam/audit.js";
import { RecordId } from "../../src/value/types.js";

const clock = { now: () => Date.UTC(2026, 0, 2, 3, 4, 5) };

describe("Audit", () => {
  it("reads identity, ns/db, ip and session id from the session; fixed fields are null when unknown", () => {
    const events: AuditEvent[] = [];
    const audit = new Audit([(e) => events.push(e)], clock);
    const session = newSession({ ns: "app", db: "app", ac: "account", rd: new RecordId("user", "ann"), id: "s-1", ip: "10.0.0.1" });
    session.actor = { level: "Record", ns: "app", db: "app", id: "user:ann", roles: [] };
    audit.emit({ event: "signin", outcome: "success", reason: "ok", session });
    audit.emit({ event: "throttled", outcome: "failure", reason: "TooManyAttempts" });
    expect(events).toEqual([
      { time: "2026-01-02T03:04:05.000Z", event: "signin", outcome: "success", reason: "ok", identity: "record", user: null, record: "user:ann", access: "account", ns: "app", db: "app", ip: "10.0.0.1", session: "s-1" },
      { time: "2026-01-02T03:04:05.000Z", event: "throttled", outcome: "failure", reason: "TooManyAttempts", identity: "anonymous", user: null, record: null, access: null, ns: null, db: null, ip: null, session: null },
    ]);
  });

  it("a failed signin names the identity its credentials try, never their secret values", () => {
    const vars = { NS: "app", DB: "app", AC: "account", email: "ann@example.com", password: "hunter2-secret", nested: { pin: ["9876"] } };
    expect(attemptedIdentity(vars, 2)).toEqual({ identity: "record", user: null, record: null, access: "account", ns: "app", db: "app" });
    expect(attemptedIdentity({ ns: "app", user: "ops", pass: "x" }, 1)).toEqual({ identity: "namespace", user: "ops", record: null, access: null, ns: "app", db: null });
    expect(credentialSecrets(vars).sort()).toEqual(["9876", "ann@example.com", "hunter2-secret"]);
    expect(scrub("Expected a string but found 'hunter2-secret'", credentialSecrets(vars))).toBe("Expected a string but found '[REDACTED]'");
  });

  it("drops extra fields with secret-looking names and scrubs detail and extra texts", () => {
    const events: AuditEvent[] = [];
    new Audit([(e) => events.push(e)], clock).emit({
      event: "refresh",
      outcome: "failure",
      reason: "InvalidAuth",
      detail: "refresh token abc.def.ghi reused",
      extra: { refresh_token: "abc.def.ghi", family: "f-1", note: "was abc.def.ghi" },
      secrets: ["abc.def.ghi"],
    });
    expect(events[0]).toMatchObject({ detail: "refresh token [REDACTED] reused", family: "f-1", note: "was [REDACTED]" });
    expect(JSON.stringify(events)).not.toContain("abc.def.ghi");
  });

  it("a failing writer loses only its own copy", () => {
    const events: AuditEvent[] = [];
    const audit = new Audit([() => { throw new Error("disk full"); }, (e) => events.push(e)], clock);
    expect(() => audit.emit({ event: "invalidate", outcome: "success", reason: "ok" })).not.toThrow();
    expect(events).toHaveLength(1);
  });

  it("the audit file: JSON lines appended across reopenings, mode 0600, written before emit returns", () => {
    const dir = mkdtempSync(join(tmpdir(), "audit-file-"));
    try {
      const path = join(dir, "audit.jsonl");
      const first = auditFileWriter(path);
      new Audit([first.write], clock).emit({ event: "signin", outcome: "failure", reason: "InvalidAuth" });
      // on disk before close
      expect(readFileSync(path, "utf8").split("\n")).toHaveLength(2);
      first.close();
      const second = auditFileWriter(path);
      new Audit([second.write], clock).emit({ event: "signup", outcome: "success", reason: "ok" });
      second.close();
      const lines = readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as AuditEvent);
      expect(lines.map((e) => e.event)).toEqual(["signin", "signup"]);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      // rotation: the old file moved away, reopen writes a new one at the path
      const third = auditFileWriter(path);
      renameSync(path, `${path}.1`);
      third.reopen();
      new Audit([third.write], clock).emit({ event: "invalidate", outcome: "success", reason: "ok" });
      third.close();
      expect(readFileSync(path, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as AuditEvent).event)).toEqual(["invalidate"]);
      expect(readFileSync(`${path}.1`, "utf8").trimEnd().split("\n")).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
