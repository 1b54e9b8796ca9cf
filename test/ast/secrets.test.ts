// ast/secrets.ts: what a role that may not define an access method sees of it — a private key given as the
// verification key and a JWKS URL's credentials are secrets too (attack pass 11, I4), in INFO (the .surql cases
// info-private-keys*.surql) and in the export (here), both compats.

import { describe, expect, it } from "vitest";
import { isPrivateKey } from "../../src/ast/secrets.js";
import { REDACTED_EXPORT } from "../../src/exec/export.js";
import { newDs, rootSession, run, systemSession } from "../exec/helpers.js";

const PRIVATE = "-----BEGIN PRIVATE KEY-----\\nMIIEsecret\\n-----END PRIVATE KEY-----";
const PUBLIC = "-----BEGIN PUBLIC KEY-----\\nMIIBpublic\\n-----END PUBLIC KEY-----";

const SCHEMA = {
  1: `DEFINE TOKEN rsiss ON DATABASE TYPE RS256 VALUE '${PRIVATE}'; DEFINE TOKEN pub ON DATABASE TYPE RS256 VALUE '${PUBLIC}';`,
  2: `DEFINE ACCESS rsiss ON DATABASE TYPE JWT ALGORITHM RS256 KEY '${PRIVATE}'; DEFINE ACCESS pub ON DATABASE TYPE JWT ALGORITHM RS256 KEY '${PUBLIC}';
      DEFINE ACCESS jwks ON DATABASE TYPE JWT URL 'https://user:hunter2@example.com/jwks.json';`,
};

describe("isPrivateKey", () => {
  it("PEM private keys of every kind and JWKs with `d`; not public keys", () => {
    for (const k of ["-----BEGIN PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----", "-----BEGIN ENCRYPTED PRIVATE KEY-----", '{"kty":"EC","d":"x"}']) expect(isPrivateKey(k)).toBe(true);
    for (const k of ["-----BEGIN PUBLIC KEY-----", "-----BEGIN CERTIFICATE-----", '{"kty":"EC","x":"a","y":"b"}']) expect(isPrivateKey(k)).toBe(false);
  });
});

describe.each([1, 2] as const)("export of a private verification key, compat %i", (compat) => {
  it("an EDITOR / VIEWER gets it redacted and commented out; an OWNER whole; public keys stay", async () => {
    const ds = newDs({ compat });
    expect((await run(ds, rootSession(), SCHEMA[compat])).filter((o) => "err" in o)).toEqual([]);
    for (const role of ["EDITOR", "VIEWER"] as const) {
      const text = await ds.exportSql(systemSession("Database", [role]));
      expect(text).not.toMatch(/MIIEsecret|hunter2/);
      expect(text).toContain(`-- ${REDACTED_EXPORT}\n`);
      expect(text).toContain("MIIBpublic");
      for (const line of text.split("\n").filter((l) => l.includes("[REDACTED]"))) expect(line).toMatch(/^-- /);
      if (compat === 2) expect(text).toContain("-- DEFINE ACCESS jwks ON DATABASE TYPE JWT URL 'https://[REDACTED]@example.com/jwks.json'");
    }
    const whole = await ds.exportSql(systemSession("Database", ["OWNER"]));
    expect(whole).toContain("MIIEsecret");
    expect(whole).not.toContain(REDACTED_EXPORT);
  });
});
