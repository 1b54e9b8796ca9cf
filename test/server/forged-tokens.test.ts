// R9 over a real loopback server: a token that does not verify tells nothing about which namespaces, databases, access
// methods or scopes exist. Every such token gets the same status and text over HTTP Bearer and over RPC authenticate
// (SurrealDB 2.6.0 / 1.5.4 name the missing access, scope or database; SECURITY.md).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { jsonRpcSocket } from "./clients.js";

const SCHEMA = {
  1: "DEFINE SCOPE account SESSION 1h SIGNIN (SELECT * FROM user WHERE email = $email); DEFINE TOKEN jw ON DATABASE TYPE HS512 VALUE 'secret';",
  2: "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email); DEFINE ACCESS jw ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'secret';",
};

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
/** A token with a garbage signature, as anyone can make. */
const forged = (claims: Record<string, unknown>, alg = "HS512") => `${b64({ typ: "JWT", alg })}.${b64({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.AAAA`;

describe.each([1, 2] as const)("R9: forged tokens over the server, compat %i", (compat) => {
  let server: SurrealServer;
  let port: number;
  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    await db.importText(`USE NS app DB app; ${SCHEMA[compat]}`);
    ({ server, port } = await db.listen("127.0.0.1", 0));
  });
  afterAll(async () => {
    await server.close();
  });

  it("unknown access / scope / token / user / database / namespace, alg none and malformed all answer alike", async () => {
    const ac = compat === 1 ? "SC" : "AC";
    const tokens = [
      forged({ NS: "app", DB: "app", [ac]: "account", ID: "user:x" }), // the real access: the signature is what fails
      forged({ NS: "app", DB: "app", [ac]: "nosuchaccess", ID: "user:x" }),
      forged({ NS: "app", DB: "nodb", [ac]: "account", ID: "user:x" }),
      forged({ NS: "nons", DB: "nodb", [ac]: "account", ID: "user:x" }),
      forged(compat === 1 ? { NS: "app", DB: "app", TK: "nosuch" } : { NS: "app", AC: "nosuch" }),
      forged(compat === 1 ? { NS: "app", TK: "nosuch" } : { AC: "nosuch" }),
      forged({ NS: "app", DB: "app", [compat === 1 ? "TK" : "AC"]: "jw" }),
      forged({ NS: "app", DB: "app", ID: "nosuchuser" }),
      forged({ NS: "app", DB: "app", [ac]: "jw", ID: "not a record id" }),
      forged({ NS: "app", DB: "app", [ac]: "account", ID: "user:x" }, "none").replace(/AAAA$/, ""),
      "not.a.token",
    ];
    const ws = await jsonRpcSocket(`ws://127.0.0.1:${port}/rpc`);
    try {
      for (const token of tokens) {
        const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: "POST", headers: { accept: "application/json", authorization: `Bearer ${token}` }, body: "RETURN 1" });
        expect([res.status, await res.text()], token).toEqual([401, "There was a problem with authentication"]);
        expect((await ws.rpc("authenticate", [token])).error, token).toEqual({
          code: -32000,
          message: "There was a problem with the database: There was a problem with authentication",
        });
      }
    } finally {
      ws.ws.close();
    }
  });

  it("an expired token: 2.6.0's 'The token has expired' (checked before any lookup, so it names nothing), 1.5.4's generic error", async () => {
    const token = forged({ NS: "app", DB: "nodb", [compat === 1 ? "SC" : "AC"]: "nosuchaccess", ID: "user:x", exp: 1 });
    const text = compat === 2 ? "The token has expired" : "There was a problem with authentication";
    const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: "POST", headers: { accept: "application/json", authorization: `Bearer ${token}` }, body: "RETURN 1" });
    // reference/protocol.md: HTTP's 401 body is the error string, v2 "There was a problem with the database: The token has expired"
    expect([res.status, await res.text()]).toEqual([401, compat === 2 ? `There was a problem with the database: ${text}` : text]);
    const ws = await jsonRpcSocket(`ws://127.0.0.1:${port}/rpc`);
    try {
      expect((await ws.rpc("authenticate", [token])).error).toEqual({ code: -32000, message: `There was a problem with the database: ${text}` });
    } finally {
      ws.ws.close();
    }
  });
});
