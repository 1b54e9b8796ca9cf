// DEFINE ACCESS (2.x) and its 1.x spellings DEFINE SCOPE / DEFINE TOKEN → INFO FOR text, with redaction.
import type { DefineAccessStatement, Duration, JwtAlgorithm, JwtConfig } from "../nodes.js";
import { Duration as DurationValue } from "../../value/types.js";
import type { Ctx } from "./context.js";
import { innerCtx } from "./context.js";
import { comment, defineHead } from "./define.js";
import { expr } from "./expr.js";
import { durOrNone, ident, str } from "./values.js";

export const REDACTED = "[REDACTED]";

const HOUR = 3_600_000_000_000n;
/** 2.x access defaults: grant 30d, token 1h, session NONE. */
export const ACCESS_GRANT_DEFAULT = new DurationValue(30n * 24n * HOUR);
export const ACCESS_TOKEN_DEFAULT = new DurationValue(HOUR);

export function isSymmetric(alg: JwtAlgorithm): boolean {
  return alg.startsWith("HS");
}

/**
 * The JWT configuration SurrealDB stores for an access method: the one written, else the engine's
 * resolved one (`jwt`). `ALGORITHM HSxxx KEY k` issues with the same key unless the definition came from
 * 1.x `DEFINE TOKEN` (verify-only). `undefined` when neither is known.
 */
export function effectiveJwt(s: DefineAccessStatement, resolved: JwtConfig | undefined): JwtConfig | undefined {
  const jwt = s.access.jwt ?? resolved;
  if (jwt === undefined || jwt.issuer !== undefined) return jwt;
  if (jwt.verify.kind === "Key" && isSymmetric(jwt.verify.alg) && s.legacy?.kind !== "Token") {
    return { verify: jwt.verify, issuer: { alg: jwt.verify.alg, key: jwt.verify.key } };
  }
  return jwt;
}

/** INFO FOR redaction: symmetric verify keys and every issuer key become `[REDACTED]`; public keys and URLs stay. */
export function redactJwt(jwt: JwtConfig): JwtConfig {
  const verify = jwt.verify.kind === "Key" && isSymmetric(jwt.verify.alg) ? { ...jwt.verify, key: REDACTED } : jwt.verify;
  return { verify, issuer: jwt.issuer === undefined ? undefined : { ...jwt.issuer, key: REDACTED } };
}

/** The JWT as printed; a missing default JWT under redaction is the default HS512 text SurrealDB shows. */
export function printedJwt(s: DefineAccessStatement, c: Ctx): JwtConfig | undefined {
  const jwt = effectiveJwt(s, c.jwt);
  if (jwt === undefined) {
    if (!c.redact) return undefined;
    return { verify: { kind: "Key", alg: "HS512", key: REDACTED }, issuer: { alg: "HS512", key: REDACTED } };
  }
  return c.redact ? redactJwt(jwt) : jwt;
}

function jwtText(jwt: JwtConfig, c: Ctx): string {
  const verify = jwt.verify.kind === "Key" ? `ALGORITHM ${jwt.verify.alg} KEY ${str(jwt.verify.key, c)}` : `URL ${str(jwt.verify.url, c)}`;
  return jwt.issuer === undefined ? verify : `${verify} WITH ISSUER KEY ${str(jwt.issuer.key, c)}`;
}

/** Durations as stored: 2.x fills grant 30d, token 1h, session NONE; a 1.x SESSION becomes the session duration. */
export function accessDurations(s: DefineAccessStatement): { grant: Duration | null; token: Duration | null; session: Duration | null } {
  const legacySession = s.legacy?.kind === "Scope" ? s.legacy.session : undefined;
  const pick = (d: Duration | null | undefined, dflt: Duration | null): Duration | null => (d === undefined ? dflt : d);
  return {
    grant: pick(s.duration.grant, ACCESS_GRANT_DEFAULT),
    token: pick(s.duration.token, ACCESS_TOKEN_DEFAULT),
    session: pick(s.duration.session, legacySession ?? null),
  };
}

/** JWT accesses issue tokens only with an issuer key; RECORD and BEARER always can. */
export function canIssueTokens(s: DefineAccessStatement, jwt: JwtConfig | undefined): boolean {
  return s.access.kind !== "Jwt" || jwt?.issuer !== undefined;
}

/** BEARER accesses and RECORD WITH REFRESH issue grants. */
export function canIssueGrants(s: DefineAccessStatement): boolean {
  return s.access.kind === "Bearer" || (s.access.kind === "Record" && s.access.refresh);
}

export function defineAccess(s: DefineAccessStatement, c: Ctx): string {
  if (c.compat === 1 && s.legacy !== undefined) return defineLegacy(s, c);
  const e = innerCtx(c);
  const jwt = printedJwt(s, c);
  let out = `${defineHead("ACCESS", s)} ${ident(s.name, c)} ON ${s.base} TYPE `;
  const a = s.access;
  if (a.kind === "Jwt") out += `JWT ${jwtText(jwt!, c)}`;
  else if (a.kind === "Bearer") out += `BEARER FOR ${a.subject}`;
  else {
    out += "RECORD";
    if (a.signup !== undefined) out += ` SIGNUP ${expr(a.signup, e)}`;
    if (a.signin !== undefined) out += ` SIGNIN ${expr(a.signin, e)}`;
    if (a.refresh) out += " WITH REFRESH";
    if (jwt !== undefined) out += ` WITH JWT ${jwtText(jwt, c)}`;
  }
  if (s.authenticate !== undefined) out += ` AUTHENTICATE ${expr(s.authenticate, e)}`;
  const d = accessDurations(s);
  out += " DURATION";
  if (canIssueGrants(s)) out += ` FOR GRANT ${durOrNone(d.grant)},`;
  if (canIssueTokens(s, effectiveJwt(s, c.jwt))) out += ` FOR TOKEN ${durOrNone(d.token)},`;
  out += ` FOR SESSION ${durOrNone(d.session)}`;
  return out + comment(s.comment, c);
}

/** 1.x text: `DEFINE SCOPE s [SESSION d] [SIGNUP …] [SIGNIN …]`, `DEFINE TOKEN t ON … TYPE alg VALUE '…'` (never redacted). */
function defineLegacy(s: DefineAccessStatement, c: Ctx): string {
  const l = s.legacy!;
  const e = innerCtx(c);
  if (l.kind === "Scope") {
    let out = `${defineHead("SCOPE", s)} ${ident(s.name, c)}`;
    const session = l.session ?? s.duration.session ?? undefined;
    if (session !== undefined) out += ` SESSION ${durOrNone(session)}`;
    if (s.access.kind === "Record") {
      if (s.access.signup !== undefined) out += ` SIGNUP ${expr(s.access.signup, e)}`;
      if (s.access.signin !== undefined) out += ` SIGNIN ${expr(s.access.signin, e)}`;
    }
    return out + comment(s.comment, c);
  }
  const on = l.on === "SCOPE" ? `SCOPE ${ident(l.scope ?? "", c)}` : l.on;
  return `${defineHead("TOKEN", s)} ${ident(s.name, c)} ON ${on} TYPE ${l.type} VALUE ${str(l.value, c)}${comment(s.comment, c)}`;
}
