// ast/secrets.ts: what a role that may not define an access method sees of it — a private key given as the
// verification key and a JWKS URL's credentials are secrets too (attack pass 11, I4), in INFO (the .surql cases
// info-private-keys*.surql) and in the export (here), both compats.

import { describe, expect, it } from "vitest";
import { isPublicKey } from "../../src/ast/secrets.js";
import { REDACTED_EXPORT } from "../../src/exec/export.js";
import { newDs, rootSession, run, systemSession } from "../exec/helpers.js";

const PRIVATE = "-----BEGIN PRIVATE KEY-----\\nMIIEsecret\\n-----END PRIVATE KEY-----";
const PUBLIC = "-----BEGIN PUBLIC KEY-----\\nMIIBpublic\\n-----END PUBLIC KEY-----";

const SCHEMA = {
  1: `DEFINE TOKEN rsiss ON DATABASE TYPE RS256 VALUE '${PRIVATE}'; DEFINE TOKEN pub ON DATABASE TYPE RS256 VALUE '${PUBLIC}';`,
  2: `DEFINE ACCESS rsiss ON DATABASE TYPE JWT ALGORITHM RS256 KEY '${PRIVATE}'; DEFINE ACCESS pub ON DATABASE TYPE JWT ALGORITHM RS256 KEY '${PUBLIC}';
      DEFINE ACCESS jwks ON DATABASE TYPE JWT URL 'https://user:hunter2@example.com/jwks.json';
      DEFINE ACCESS bare ON DATABASE TYPE JWT ALGORITHM RS256 KEY 'MIIEbaresecret';
      DEFINE ACCESS jwksq ON DATABASE TYPE JWT URL 'https://example.com/jwks.json?token=querysecret#fragsecret';`,
};

describe("isPublicKey", () => {
  it("PEM public keys and certificates, alone or together, and JWKs without secret members", () => {
    const pem = (armour: string, body = "MIIB") => `-----BEGIN ${armour}-----\n${body}\n-----END ${armour}-----`;
    for (const k of [pem("PUBLIC KEY"), pem("RSA PUBLIC KEY"), pem("CERTIFICATE"), `  ${pem("PUBLIC KEY")}\r\n`, `${pem("CERTIFICATE")}\n${pem("PUBLIC KEY")}`, '{"kty":"EC","x":"a","y":"b"}']) {
      expect(isPublicKey(k)).toBe(true);
    }
  });
  it("anything else: PEM private keys of every kind, a private key after a public one, unarmoured or unknown text, JWKs with a secret", () => {
    const pem = (armour: string, body = "MIIE") => `-----BEGIN ${armour}-----\n${body}\n-----END ${armour}-----`;
    for (const k of [
      pem("PRIVATE KEY"), pem("RSA PRIVATE KEY"), pem("EC PRIVATE KEY"), pem("ENCRYPTED PRIVATE KEY"),
      `${pem("PUBLIC KEY")}\n${pem("PRIVATE KEY")}`, `${pem("PUBLIC KEY")}\nMIIEsecret`, "-----BEGIN PUBLIC KEY-----\nMIIB",
      "MIIEogIBAAKCAQEA", "", pem("OPENSSH PRIVATE KEY"), "-----BEGIN PUBLIC KEY-----\nx\n-----END CERTIFICATE-----",
      '{"kty":"EC","d":"x"}', '{"kty":"oct","k":"secret"}', '{"kty":"RSA","n":"a","e":"b","p":"c"}', "{not json", "[1]",
    ]) {
      expect(isPublicKey(k)).toBe(false);
    }
  });
});

describe.each([1, 2] as const)("export of a private verification key, compat %i", (compat) => {
  it("an EDITOR / VIEWER gets it redacted and commented out; an OWNER whole; public keys stay", async () => {
    const ds = newDs({ compat });
    expect((await run(ds, rootSession(), SCHEMA[compat])).filter((o) => "err" in o)).toEqual([]);
    for (const role of ["EDITOR", "VIEWER"] as const) {
      const text = await ds.exportSql(systemSession("Database", [role]));
      expect(text).not.toMatch(/MIIEsecret|hunter2|MIIEbaresecret|querysecret|fragsecret/);
      expect(text).toContain(`-- ${REDACTED_EXPORT}\n`);
      expect(text).toContain("MIIBpublic");
      for (const line of text.split("\n").filter((l) => l.includes("[REDACTED]"))) expect(line).toMatch(/^-- /);
      if (compat === 2) expect(text).toContain("-- DEFINE ACCESS jwks ON DATABASE TYPE JWT URL 'https://[REDACTED]@example.com/jwks.json'");
      if (compat === 2) expect(text).toContain("-- DEFINE ACCESS jwksq ON DATABASE TYPE JWT URL 'https://example.com/jwks.json?[REDACTED]#[REDACTED]'");
    }
    const whole = await ds.exportSql(systemSession("Database", ["OWNER"]));
    expect(whole).toContain("MIIEsecret");
    expect(whole).not.toContain(REDACTED_EXPORT);
  });
});
