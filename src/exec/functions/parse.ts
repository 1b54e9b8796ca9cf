// parse:: builtins: pieces of email addresses and URLs (NONE when the text does not parse).

import type { Value } from "../../value/types.js";
import { fn, type BuiltinTable } from "./registry.js";
import { parseEmailAddress } from "./validate.js";

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443, "ftp:": 21 };

function url(text: Value): URL | undefined {
  try {
    return new URL(text as string);
  } catch {
    return undefined;
  }
}

const urlPart = (get: (u: URL) => Value) => fn(["string"], ([s]) => {
  const u = url(s);
  return u ? get(u) : undefined;
});

const isIpHost = (h: string): boolean => /^\[.*\]$/.test(h) || /^\d+\.\d+\.\d+\.\d+$/.test(h);

export const parseFunctions: BuiltinTable = {
  "parse::email::host": fn(["string"], ([s]) => parseEmailAddress(s as string)?.host),
  "parse::email::user": fn(["string"], ([s]) => parseEmailAddress(s as string)?.user),
  "parse::url::domain": urlPart((u) => (u.hostname && !isIpHost(u.hostname) ? u.hostname : undefined)),
  "parse::url::fragment": urlPart((u) => (u.hash ? u.hash.slice(1) : undefined)),
  "parse::url::host": urlPart((u) => u.hostname.replace(/^\[|\]$/g, "") || undefined),
  "parse::url::path": urlPart((u) => u.pathname),
  "parse::url::query": urlPart((u) => (u.search ? u.search.slice(1) : undefined)),
  "parse::url::scheme": urlPart((u) => u.protocol.replace(/:$/, "")),
  // v1 reports only an explicit port; v2 falls back to the scheme's default.
  "parse::url::port": fn(["string"], ([s], ctx) => {
    const u = url(s);
    if (!u) return undefined;
    if (u.port) return BigInt(u.port);
    const def = DEFAULT_PORTS[u.protocol];
    return ctx.compat === 2 && def !== undefined ? BigInt(def) : undefined;
  }),
};
