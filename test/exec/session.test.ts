// The session's own checks: expiry, and the definitions it stands on (definitionEnded, R4 / R5).

import { describe, expect, it } from "vitest";
import type { AuthCatalog } from "../../src/exec/contract.js";
import { definitionEnded, isExpired, newSession, type DefinitionRef } from "../../src/exec/session.js";

/** A catalog holding `entries` by "kind:base:ns:db:name". */
function catalog(entries: Map<string, object>): AuthCatalog {
  const get = (kind: string) => (base: string, ns: string | undefined, db: string | undefined, name: string) =>
    entries.get(`${kind}:${base}:${ns ?? ""}:${db ?? ""}:${name}`) as never;
  return { getUser: get("user"), getAccess: get("access"), committedDefinition: (kind, base, ns, db, name) => get(kind)(base, ns, db, name) };
}

const ref = (kind: "user" | "access", name: string, entry: object): DefinitionRef => ({ kind, base: "DATABASE", ns: "app", db: "app", name, entry });

describe("definitionEnded", () => {
  it("holds while every definition is the stored one; ends once one is removed or replaced", () => {
    const [user, access] = [{}, {}];
    const stored = new Map<string, object>([
      ["user:DATABASE:app:app:u", user],
      ["access:DATABASE:app:app:a", access],
    ]);
    const session = newSession({ definitions: [ref("user", "u", user), ref("access", "a", access)] });
    expect(definitionEnded(session, catalog(stored))).toBe(false);
    // a user and an access of the same name are different definitions
    expect(definitionEnded(newSession({ definitions: [ref("access", "u", user)] }), catalog(stored))).toBe(true);
    stored.set("access:DATABASE:app:app:a", {});
    expect(definitionEnded(session, catalog(stored))).toBe(true);
    stored.set("access:DATABASE:app:app:a", access);
    stored.delete("user:DATABASE:app:app:u");
    expect(definitionEnded(session, catalog(stored))).toBe(true);
  });

  it("a session naming no definition (built by code, not by iam/) depends on none", () => {
    const s = newSession({ actor: { level: "Record", ns: "app", db: "app", id: "user:1", roles: [] }, ac: "gone" });
    expect(definitionEnded(s, catalog(new Map()))).toBe(false);
    expect(isExpired(s, { now: () => 0 })).toBe(false);
  });
});
