// test/language: the session a behaviour-file identity stands for (root, system users, record users, guests).

import { newSession } from "../../src/exec/session.js";
import type { Session } from "../../src/exec/session.js";
import { RecordId } from "../../src/value/types.js";
import { systemUserDefinition } from "./format.js";
import type { Identity } from "./format.js";

export function sessionFor(id: Identity, compat: 1 | 2): Session {
  const where = { ns: "test", db: "test" };
  switch (id.kind) {
    case "root":
      return newSession({ ...where, actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
    case "system":
      return newSession({
        ...where,
        actor: { level: id.level === "ns" ? "Namespace" : "Database", ns: "test", db: id.level === "db" ? "test" : undefined, id: systemUserDefinition(id.level, id.role).name, roles: [id.role] },
      });
    case "record": {
      const key = /^\d+$/.test(id.key) ? BigInt(id.key) : id.key;
      const rd = new RecordId(id.table, key);
      const tk = { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", ID: `${id.table}:${id.key}` };
      return newSession({ ...where, actor: { level: compat === 1 ? "Scope" : "Record", ns: "test", db: "test", id: `${id.table}:${id.key}`, roles: [] }, rd, ac: "account", tk });
    }
    case "guest":
      return newSession(where);
  }
}
