// The console's reading of INFO answers, in the 2.x and 1.x shapes.

import { describe, expect, it } from "vitest";
import { accesses, ident, maskSecrets, users } from "../../console/src/info.js";

describe("console INFO reading", () => {
  it("tells record and JWT access methods apart, with their algorithm (2.x accesses, 1.x scopes and tokens)", () => {
    const v2 = {
      accesses: {
        account: "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (…) WITH JWT ALGORITHM HS512 KEY '[REDACTED]'",
        api: "DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS384 KEY '[REDACTED]'",
      },
    };
    expect(accesses(v2).map((a) => [a.name, a.kind, a.algorithm])).toEqual([
      ["account", "record", "HS512"],
      ["api", "jwt", "HS384"],
    ]);
    const v1 = { scopes: { account: "DEFINE SCOPE account SESSION 1d SIGNIN (…)" }, tokens: { api: "DEFINE TOKEN api ON DATABASE TYPE HS256 VALUE '…'" } };
    expect(accesses(v1).map((a) => [a.name, a.kind, a.algorithm])).toEqual([
      ["account", "record", undefined],
      ["api", "jwt", "HS256"],
    ]);
  });

  it("reads users' roles and hides their password hashes", () => {
    const info = { users: { reader: "DEFINE USER reader ON DATABASE PASSHASH '$argon2id$v=19$abc' ROLES VIEWER, EDITOR DURATION FOR TOKEN 1h" } };
    const [u] = users(info, "database app");
    expect([u.name, u.level, u.roles]).toEqual(["reader", "database app", "VIEWER, EDITOR"]);
    expect(u.definition).toBe("DEFINE USER reader ON DATABASE PASSHASH '…' ROLES VIEWER, EDITOR DURATION FOR TOKEN 1h");
    expect(maskSecrets("DEFINE USER x ON ROOT PASSWORD 'pw' ROLES OWNER")).toBe("DEFINE USER x ON ROOT PASSWORD '…' ROLES OWNER");
  });

  it("quotes table names that are not plain identifiers", () => {
    expect([ident("user"), ident("we`ird"), ident("a-b"), ident("back\\slash")]).toEqual(["user", "`we\\`ird`", "`a-b`", "`back\\\\slash`"]);
  });
});
