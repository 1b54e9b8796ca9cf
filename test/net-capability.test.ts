// SurqlAuth.open({ allowNet }) — `--deny-all` turns it off: an access method's JWKS URL is then never fetched.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSync } from "node:crypto";
import { SignJWT, exportJWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../src/index.js";

describe("outbound network capability (JWKS)", () => {
  const kp = generateKeyPairSync("ec", { namedCurve: "P-256" });
  let server: Server;
  let url: string;
  let fetches = 0;
  beforeAll(async () => {
    const jwk = { ...(await exportJWK(kp.publicKey)), kid: "k1", alg: "ES256" };
    server = createServer((_req, res) => {
      fetches++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function authenticate(allowNet: boolean | undefined): Promise<unknown> {
    const db = await SurqlAuth.open({ ...(allowNet === undefined ? {} : { allowNet }) });
    await db.importText(`USE NS app DB app; DEFINE ACCESS ext ON DATABASE TYPE JWT URL '${url}';`);
    const token = await new SignJWT({ NS: "app", DB: "app", AC: "ext", exp: Math.floor(Date.now() / 1000) + 600 }).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(kp.privateKey);
    return db.connect().authenticate(token).then(
      () => "ok",
      (e: Error) => e.message,
    );
  }

  it("fetches the JWKS by default and with allowNet; never with allowNet: false", async () => {
    fetches = 0;
    expect(await authenticate(undefined)).toBe("ok");
    expect(await authenticate(true)).toBe("ok");
    const before = fetches;
    expect(before).toBeGreaterThan(0);
    expect(await authenticate(false)).toBe("There was a problem with the database: There was a problem with authentication");
    expect(fetches).toBe(before);
  });
});
