// POST /signin and /signup (protocol.md §3): credentials body ⇒ iam ⇒ the token in the Accept-ed shape.

import { isValueObject, type Value } from "../../value/types.js";
import { DecodeError, decodeJsonBody, encodeCbor, stringifyJson } from "../codec/index.js";
import type { SigninResult } from "../types.js";
import { INVALID_BODY, accept, readBody, send, sendAcceptRequired, sendBadRequest, sendError, sendUnsupportedMediaType, type RouteRequest } from "./common.js";

function tokens(r: SigninResult): { token: Value; refresh: Value } {
  if (typeof r === "string") return { token: r, refresh: null };
  return { token: r?.token ?? undefined, refresh: r?.refresh ?? null };
}

export async function handleSignin(r: RouteRequest, kind: "signin" | "signup"): Promise<void> {
  let result: SigninResult;
  try {
    const body = await readBody(r.req, r.ctx.limits.authBody);
    let vars: Value;
    try {
      vars = decodeJsonBody(body);
    } catch (e) {
      if (e instanceof DecodeError) return sendBadRequest(r.res, INVALID_BODY);
      throw e;
    }
    if (!isValueObject(vars)) return sendBadRequest(r.res, INVALID_BODY);
    // stricter than SurrealDB (200, empty body, the sign-in done): no usable Accept is refused before signing in
    if (accept(r.req) === undefined) return sendAcceptRequired(r.res);
    result = kind === "signin" ? await r.ctx.iam.signin(r.session, vars) : await r.ctx.iam.signup(r.session, vars);
  } catch (e) {
    return sendError(r, e);
  }
  const { token, refresh } = tokens(result);
  const out: Record<string, Value> = { code: 200n, details: "Authentication succeeded", token };
  if (r.ctx.compat === 2) out["refresh"] = refresh;
  switch (accept(r.req)) {
    case "json":
      // SurrealDB's field order, not sorted
      return send(r.res, 200, `{${Object.entries(out).map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`).join(",")}}`, "application/json");
    case "cbor":
      return send(r.res, 200, encodeCbor(out, { compat: r.ctx.compat }), "application/cbor");
    case "text":
      return send(r.res, 200, typeof token === "string" ? token : "", "text/plain; charset=utf-8");
    case "octet":
    case "pack":
    case "surrealdb":
      return sendUnsupportedMediaType(r.res);
  }
}
