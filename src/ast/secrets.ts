// ast/: the secrets a user or access definition carries (password hash, signing keys) and the definition without them.

import type { AccessType, DefineAccessStatement, DefineStatement, DefineUserStatement, JwtAlgorithm, JwtConfig, JwtVerify } from "./nodes.js";
import { REDACTED, effectiveJwt, isSymmetric, redactJwt } from "./print/access.js";

/** The user with its password hash `[REDACTED]`. */
export function userWithoutSecrets(s: DefineUserStatement): DefineUserStatement {
  return { ...s, passhash: REDACTED, password: undefined };
}

/** The PEM armours of keys any role may read: public keys and certificates. */
const PUBLIC_ARMOUR = /^(?:(?:RSA |EC )?PUBLIC KEY|CERTIFICATE)$/i;
/** JWK members that hold a secret: private parts of RSA / EC / OKP keys, and an `oct` key's `k`. */
const SECRET_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** A JWK (JSON object) with no secret member. */
function isPublicJwk(text: string): boolean {
  try {
    const jwk: unknown = JSON.parse(text);
    return typeof jwk === "object" && jwk !== null && !Array.isArray(jwk) && SECRET_JWK_MEMBERS.every((m) => !(m in jwk));
  } catch {
    return false;
  }
}

/** PEM blocks, each a public key or a certificate, and nothing else (read line by line). */
function isPublicPem(text: string): boolean {
  let inside: string | undefined;
  let blocks = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const armour = /^-----(BEGIN|END) ([A-Z0-9 ]+)-----$/i.exec(line);
    if (inside === undefined) {
      if (line === "") continue;
      if (armour?.[1]!.toUpperCase() !== "BEGIN" || !PUBLIC_ARMOUR.test(armour[2]!)) return false;
      inside = armour[2]!.toUpperCase();
      blocks++;
    } else if (armour) {
      if (armour[1]!.toUpperCase() !== "END" || armour[2]!.toUpperCase() !== inside) return false;
      inside = undefined;
    }
  }
  return blocks > 0 && inside === undefined;
}

/**
 * A verification key a role that may not define it still reads: a PEM public key or certificate, or a JWK without
 * secret members. Anything else may be a private key given by mistake (it signs tokens too: attack pass 11, I4), bare
 * or in an armour we do not know (attack pass 12, J2), so it is `[REDACTED]` for them.
 */
export const isPublicKey = (key: string): boolean => {
  const text = key.trim();
  return text.startsWith("{") ? isPublicJwk(text) : isPublicPem(text);
};

/** A JWKS URL as such a role reads it: scheme, host and path; userinfo, query and fragment may carry credentials. */
function urlWithoutSecrets(url: string): string {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?([^?#]*)(\?[^#]*)?(#.*)?$/is.exec(url);
  if (!parts) return REDACTED;
  const [, scheme, userinfo, rest, query, fragment] = parts;
  return `${scheme}${userinfo ? `${REDACTED}@` : ""}${rest}${query ? `?${REDACTED}` : ""}${fragment ? `#${REDACTED}` : ""}`;
}

/** A verification key that is not a public key `[REDACTED]`, a JWKS URL without its credentials. */
function verifyWithoutSecrets(v: JwtVerify): JwtVerify {
  if (v.kind === "Key") return isPublicKey(v.key) ? v : { ...v, key: REDACTED };
  return { ...v, url: urlWithoutSecrets(v.url) };
}

/** A 1.x `DEFINE TOKEN … VALUE` without its secret: an HS key or a private key `[REDACTED]`, a JWKS URL without its credentials. */
function legacyValueWithoutSecrets(type: JwtAlgorithm | "JWKS", value: string): string {
  if (type === "JWKS") return urlWithoutSecrets(value);
  return isSymmetric(type) || !isPublicKey(value) ? REDACTED : value;
}

/**
 * The access method (and its resolved JWT) with symmetric and issuer keys `[REDACTED]`, as INFO FOR shows them (also a
 * 1.x HS `DEFINE TOKEN … VALUE`), and, stricter than SurrealDB, a verification key that is not a public key `[REDACTED]`
 * and a JWKS URL's credentials removed.
 */
export function accessWithoutSecrets(s: DefineAccessStatement, resolved: JwtConfig | undefined): { def: DefineAccessStatement; jwt: JwtConfig | undefined } {
  const effective = effectiveJwt(s, resolved);
  const redacted = effective === undefined ? undefined : redactJwt(effective);
  const jwt = redacted === undefined ? undefined : { ...redacted, verify: verifyWithoutSecrets(redacted.verify) };
  const access: AccessType = s.access.kind === "Jwt" ? { ...s.access, jwt: jwt ?? s.access.jwt } : { ...s.access, jwt };
  const legacy = s.legacy?.kind === "Token" ? { ...s.legacy, value: legacyValueWithoutSecrets(s.legacy.type, s.legacy.value) } : s.legacy;
  return { def: { ...s, access, legacy }, jwt };
}

/** A user or access definition (with its resolved JWT) without its secrets; any other definition as it is. */
export function withoutSecrets(def: DefineStatement, jwt: JwtConfig | undefined): { def: DefineStatement; jwt: JwtConfig | undefined } {
  if (def.kind === "DefineUser") return { def: userWithoutSecrets(def), jwt };
  if (def.kind === "DefineAccess") return accessWithoutSecrets(def, jwt);
  return { def, jwt };
}
