import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JwtVerify } from "../../src/ast/nodes.js";
import { InvalidAuth } from "../../src/errors/index.js";
import { JwksCache } from "../../src/iam/jwks.js";
import { KeyStore } from "../../src/iam/keys.js";
import { decodeToken, precheckTimes, verifySignature } from "../../src/iam/verify.js";
import { FakeClock } from "./fake-engine.js";

const clock = new FakeClock();
const now = () => Math.floor(clock.now() / 1000);
const enc = (s: string) => new TextEncoder().encode(s);
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const rsaPem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
const ec384 = generateKeyPairSync("ec", { namedCurve: "P-384" });
const ec384Pem = ec384.publicKey.export({ type: "spki", format: "pem" }).toString();

function hs(alg: string, key: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  return new SignJWT({ exp: now() + 60, ...claims }).setProtectedHeader({ alg, ...header }).sign(enc(key));
}

const ctx = { keys: new KeyStore(), jwks: new JwksCache({ clock }), clock };
const verify = (token: string, v: JwtVerify) => verifySignature(token, decodeToken(token, 2).header, v, ctx);
const HS512: JwtVerify = { kind: "Key", alg: "HS512", key: "secret" };

describe("decode and pre-check", () => {
  it.each([1, 2] as const)("compat %i: requires exp; nbf in the future fails with the generic error", (compat) => {
    expect(() => precheckTimes({}, 100, compat)).toThrow("There was a problem with authentication");
    expect(() => precheckTimes({ exp: 200, nbf: 101 }, 100, compat)).toThrow("There was a problem with authentication");
    expect(() => precheckTimes({ exp: 100, nbf: 100 }, 100, compat)).not.toThrow();
  });

  it("exp in the past: 2.6.0 says 'The token has expired' (checked before the signature, so it names nothing), 1.5.4 the generic text", () => {
    expect(() => precheckTimes({ exp: 99 }, 100, 2)).toThrow("The token has expired");
    expect(() => precheckTimes({ exp: 99 }, 100, 1)).toThrow(InvalidAuth);
  });

  it("garbage is InvalidAuth", () => {
    for (const t of ["", "abc", "a.b.c", "eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.x"]) expect(() => decodeToken(t, 2)).toThrow("There was a problem with authentication");
  });
});

describe("verifySignature", () => {
  it("accepts a token signed with the configured secret and algorithm", async () => {
    await expect(verify(await hs("HS512", "secret"), HS512)).resolves.toBeUndefined();
  });

  it("refuses a forged signature, a wrong key and another HS algorithm", async () => {
    const good = await hs("HS512", "secret");
    const [h, p] = good.split(".");
    const forged = `${h}.${p}.${Buffer.from("forged").toString("base64url")}`;
    await expect(verify(forged, HS512)).rejects.toThrow("There was a problem with authentication");
    await expect(verify(await hs("HS512", "other"), HS512)).rejects.toThrow("There was a problem with authentication");
    await expect(verify(await hs("HS256", "secret"), HS512)).rejects.toThrow("There was a problem with authentication");
  });

  it("refuses alg none", async () => {
    const none = new UnsecuredJWT({ exp: now() + 60 }).encode();
    await expect(verify(none, HS512)).rejects.toThrow("There was a problem with authentication");
  });

  it("refuses HS/RS confusion: an HS256 token signed with the RSA public key text", async () => {
    const confused = await hs("HS256", rsaPem);
    await expect(verify(confused, { kind: "Key", alg: "RS256", key: rsaPem })).rejects.toThrow("There was a problem with authentication");
  });

  it("verifies RS256 with a PEM public key", async () => {
    const t = await new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "RS256" }).sign(rsa.privateKey);
    await expect(verify(t, { kind: "Key", alg: "RS256", key: rsaPem })).resolves.toBeUndefined();
    await expect(verify(t, { kind: "Key", alg: "RS512", key: rsaPem })).rejects.toThrow();
  });

  it("ES512 verifies as ES384 (SurrealDB quirk)", async () => {
    const t = await new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "ES384" }).sign(ec384.privateKey);
    await expect(verify(t, { kind: "Key", alg: "ES512", key: ec384Pem })).resolves.toBeUndefined();
  });

  it("an unparsable configured public key is InvalidAuth", async () => {
    const t = await new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "RS256" }).sign(rsa.privateKey);
    await expect(verify(t, { kind: "Key", alg: "RS256", key: "public" })).rejects.toThrow("There was a problem with authentication");
  });
});

describe("JWKS", () => {
  let server: Server;
  let url = "";
  let hits = 0;
  let keys: Record<string, unknown>[] = [];
  let delayMs = 0;
  const kp1 = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kp2 = generateKeyPairSync("rsa", { modulusLength: 2048 });

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      setTimeout(() => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ keys }));
      }, delayMs);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    keys = [{ ...(await exportJWK(kp1.publicKey)), kid: "k1", use: "sig" }];
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const sign = (kp: typeof kp1, kid: string | undefined, alg = "RS256") =>
    new SignJWT({ exp: now() + 60 }).setProtectedHeader(kid ? { alg, kid } : { alg }).sign(kp.privateKey);

  it("fetches once, caches, refetches on an unknown kid at most every 5 minutes, and after 12 hours", async () => {
    const c = { keys: new KeyStore(), jwks: new JwksCache({ clock }), clock };
    const v = (t: string) => verifySignature(t, decodeToken(t, 2).header, { kind: "Jwks", url }, c);
    hits = 0;
    await v(await sign(kp1, "k1"));
    await v(await sign(kp1, "k1"));
    expect(hits).toBe(1);
    // unknown kid right away: no refetch yet
    keys = [...keys, { ...(await exportJWK(kp2.publicKey)), kid: "k2", alg: "RS256" }];
    await expect(v(await sign(kp2, "k2"))).rejects.toThrow("There was a problem with authentication");
    expect(hits).toBe(1);
    clock.advance(301);
    await v(await sign(kp2, "k2"));
    expect(hits).toBe(2);
    clock.advance(12 * 3600);
    await v(await sign(kp1, "k1"));
    expect(hits).toBe(3);
  });

  it("requires a kid, a fitting algorithm and a signing key", async () => {
    const c = { keys: new KeyStore(), jwks: new JwksCache({ clock }), clock };
    const v = (t: string) => verifySignature(t, decodeToken(t, 2).header, { kind: "Jwks", url }, c);
    await expect(v(await sign(kp1, undefined))).rejects.toThrow("Auth token is missing the 'kid' header");
    await expect(v(await sign(kp2, "k2", "RS512"))).rejects.toThrow("There was a problem with authentication"); // JWK alg is RS256
    await expect(v(await hs("HS256", "x", {}, { kid: "k1" }))).rejects.toThrow("There was a problem with authentication");
    keys = [{ ...(await exportJWK(kp1.publicKey)), kid: "enc", use: "enc" }];
    clock.advance(301);
    await expect(v(await sign(kp1, "enc"))).rejects.toThrow("There was a problem with authentication");
  });

  it("gives up after the timeout", async () => {
    const c = { keys: new KeyStore(), jwks: new JwksCache({ clock, timeoutMs: 20 }), clock };
    delayMs = 200;
    try {
      const t = await sign(kp1, "k1");
      await expect(verifySignature(t, decodeToken(t, 2).header, { kind: "Jwks", url }, c)).rejects.toThrow(
        "There was a problem with authentication",
      );
    } finally {
      delayMs = 0;
    }
  });
});

describe("JWKS limits", () => {
  const kp = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const token = () => new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "ES256", kid: "k" }).sign(kp.privateKey);
  const run = async (jwks: JwksCache, url: string) => {
    const t = await token();
    return verifySignature(t, decodeToken(t, 2).header, { kind: "Jwks", url }, { keys: new KeyStore(), jwks, clock });
  };

  it("only http(s) URLs the capability allows are fetched", async () => {
    let fetched = 0;
    const fetchSpy = (async () => {
      fetched++;
      return new Response("{}");
    }) as typeof fetch;
    await expect(run(new JwksCache({ clock, fetch: fetchSpy }), "file:///etc/passwd")).rejects.toThrow("There was a problem with authentication");
    const deny = new JwksCache({ clock, fetch: fetchSpy, allowUrl: (u) => u.hostname === "idp.example" });
    await expect(run(deny, "http://169.254.169.254/keys")).rejects.toThrow("There was a problem with authentication");
    expect(fetched).toBe(0);
  });

  it("refuses an oversized JWKS body", async () => {
    const big = (async () => new Response(JSON.stringify({ keys: [], pad: "x".repeat(4096) }))) as typeof fetch;
    await expect(run(new JwksCache({ clock, fetch: big, maxBytes: 1024 }), "https://idp.example/jwks")).rejects.toThrow(
      "There was a problem with authentication",
    );
  });
});
