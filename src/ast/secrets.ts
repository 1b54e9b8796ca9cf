// ast/: the secrets a user or access definition carries (password hash, signing keys) and the definition without them.

import type { AccessType, DefineAccessStatement, DefineStatement, DefineUserStatement, JwtAlgorithm, JwtConfig, JwtVerify } from "./nodes.js";
import { REDACTED, effectiveJwt, isSymmetric, redactJwt } from "./print/access.js";

/** The user with its password hash `[REDACTED]`. */
export function userWithoutSecrets(s: DefineUserStatement): DefineUserStatement {
  return { ...s, passhash: REDACTED, password: undefined };
}

/** A PEM private key, or a JWK with a private member `d`: given as a verification key by mistake, it signs tokens too (attack pass 11, I4). */
export const isPrivateKey = (key: string): boolean => /PRIVATE KEY|"d"\s*:/.test(key);

/** The userinfo of a URL's authority (`https://user:pass@host/…`): credentials of the JWKS endpoint. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;
const urlWithoutSecrets = (url: string): string => url.replace(USERINFO, `$1${REDACTED}@`);

/** A verification key that is a private key `[REDACTED]`, a JWKS URL without its credentials (public keys stay). */
function verifyWithoutSecrets(v: JwtVerify): JwtVerify {
  if (v.kind === "Key") return isPrivateKey(v.key) ? { ...v, key: REDACTED } : v;
  return { ...v, url: urlWithoutSecrets(v.url) };
}

/** A 1.x `DEFINE TOKEN … VALUE` without its secret: an HS key or a private key `[REDACTED]`, a JWKS URL without its credentials. */
function legacyValueWithoutSecrets(type: JwtAlgorithm | "JWKS", value: string): string {
  if (type === "JWKS") return urlWithoutSecrets(value);
  return isSymmetric(type) || isPrivateKey(value) ? REDACTED : value;
}

/**
 * The access method (and its resolved JWT) with symmetric and issuer keys `[REDACTED]`, as INFO FOR shows them (also a
 * 1.x HS `DEFINE TOKEN … VALUE`), and, stricter than SurrealDB, a private key given as the verification key `[REDACTED]`
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
