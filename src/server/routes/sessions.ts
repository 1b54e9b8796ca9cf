// GET /sessions, POST /sessions/kill, DELETE /sessions/:id: the session registry (iam/sessions.ts) for system OWNERs,
// authenticated by the usual Basic or Bearer header. Answers JSON; times are ISO 8601.

import type { Actor } from "../../exec/session.js";
import { isValueObject, type Value } from "../../value/types.js";
import type { SessionFilter } from "../../iam/sessions.js";
import { DecodeError, decodeJsonBody } from "../codec/index.js";
import { INVALID_BODY, readBody, send, sendBadRequest, sendError, type RouteRequest } from "./common.js";

const FILTER_KEYS = ["id", "user", "access", "ns", "db"] as const;

const UNAUTHENTICATED_OWNER: Actor = { level: "Root", ns: undefined, db: undefined, id: "anonymous", roles: ["OWNER"] };

const json = (r: RouteRequest, body: unknown): void => send(r.res, 200, JSON.stringify(body), "application/json");

/** A filter from query-string parameters or a JSON body; `all` (true) instead of any field kills every session in reach. */
function filterOf(get: (k: string) => Value): SessionFilter | "all" | undefined {
  const filter: { -readonly [K in keyof SessionFilter]: string } = {};
  for (const k of FILTER_KEYS) {
    const v = get(k);
    if (typeof v === "string") filter[k] = v;
    else if (v !== undefined && v !== null) return undefined;
  }
  const all = get("all");
  if (all === true || all === "true") return Object.keys(filter).length === 0 ? "all" : undefined;
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** Dispatches the three routes; `id` is the path's session id for DELETE /sessions/:id. */
export async function handleSessions(r: RouteRequest, action: "list" | "kill" | "delete", id?: string): Promise<void> {
  const registry = r.ctx.iam.sessions;
  if (registry === undefined) return send(r.res, 501, "Sessions are not supported by this server", "text/plain; charset=utf-8");
  // with authentication off (--unauthenticated) an anonymous request may do everything, this too
  const actor = !r.ctx.authEnabled && r.session.actor.level === "No" ? UNAUTHENTICATED_OWNER : r.session.actor;
  try {
    switch (action) {
      case "list": {
        const q = r.url.searchParams;
        const filter = q.size === 0 ? "all" : filterOf((k) => q.get(k) ?? undefined);
        if (filter === undefined) return sendBadRequest(r.res, INVALID_BODY);
        return json(r, await registry.list(actor, filter));
      }
      case "delete": {
        const killed = await registry.kill(actor, { id: id! });
        return killed.length === 0 ? send(r.res, 404) : json(r, { killed });
      }
      case "kill": {
        let body: Value;
        try {
          body = decodeJsonBody(await readBody(r.req, r.ctx.limits.authBody));
        } catch (e) {
          if (e instanceof DecodeError) return sendBadRequest(r.res, INVALID_BODY);
          throw e;
        }
        const fields = isValueObject(body) ? body : undefined;
        const filter = fields === undefined ? undefined : filterOf((k) => fields[k]);
        if (filter === undefined) return sendBadRequest(r.res, "Name the sessions to kill: id, user, access, ns, db, or all: true");
        return json(r, { killed: await registry.kill(actor, filter) });
      }
    }
  } catch (e) {
    sendError(r, e);
  }
}
