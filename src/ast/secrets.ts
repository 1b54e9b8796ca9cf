// ast/: the secrets a user or access definition carries (password hash, signing keys) and the definition without them.

import type { AccessType, DefineAccessStatement, DefineStatement, DefineUserStatement, JwtConfig } from "./nodes.js";
import { REDACTED, effectiveJwt, isSymmetric, redactJwt } from "./print/access.js";

/** The user with its password hash `[REDACTED]`. */
export function userWithoutSecrets(s: DefineUserStatement): DefineUserStatement {
  return { ...s, passhash: REDACTED, password: undefined };
}

/** The access method (and its resolved JWT) with symmetric and issuer keys `[REDACTED]`, as INFO FOR shows them (also a 1.x HS `DEFINE TOKEN … VALUE`). */
export function accessWithoutSecrets(s: DefineAccessStatement, resolved: JwtConfig | undefined): { def: DefineAccessStatement; jwt: JwtConfig | undefined } {
  const effective = effectiveJwt(s, resolved);
  const jwt = effective === undefined ? undefined : redactJwt(effective);
  const access: AccessType = s.access.kind === "Jwt" ? { ...s.access, jwt: jwt ?? s.access.jwt } : { ...s.access, jwt };
  const legacy = s.legacy?.kind === "Token" && s.legacy.type !== "JWKS" && isSymmetric(s.legacy.type) ? { ...s.legacy, value: REDACTED } : s.legacy;
  return { def: { ...s, access, legacy }, jwt };
}

/** A user or access definition (with its resolved JWT) without its secrets; any other definition as it is. */
export function withoutSecrets(def: DefineStatement, jwt: JwtConfig | undefined): { def: DefineStatement; jwt: JwtConfig | undefined } {
  if (def.kind === "DefineUser") return { def: userWithoutSecrets(def), jwt };
  if (def.kind === "DefineAccess") return accessWithoutSecrets(def, jwt);
  return { def, jwt };
}
