// GET / and GET /console/<file>: the admin console's static page (built by `npm run build` into dist/console/),
// served under a strict Content-Security-Policy; the page talks to the server only through the public HTTP API.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { send, type RouteRequest } from "./common.js";

/** Scripts, styles and fetches from this origin only; no inline code, no frames, no forms posting elsewhere. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Where the build puts the page, seen from src/server/routes (run from source) and from dist/src/server/routes. */
const CANDIDATES = ["../../../dist/console/", "../../../console/"].map((p) => fileURLToPath(new URL(p, import.meta.url)));

/** The folder holding the built page (console/ itself holds only its sources), looked up on each request. */
function consoleDir(): string | undefined {
  return CANDIDATES.find((dir) => existsSync(dir + "index.html") && existsSync(dir + "app.js"));
}

/** A plain file name with a known type, so no request path can leave the folder. */
function assetType(name: string): string | undefined {
  return /^[\w-]+(\.[\w-]+)*$/.test(name) ? TYPES[name.slice(name.lastIndexOf("."))] : undefined;
}

/** Answer GET / (name "index.html") or GET /console/<name>. */
export function handleConsole(r: RouteRequest, name: string): void {
  r.res.setHeader("content-security-policy", CONSOLE_CSP);
  r.res.setHeader("x-content-type-options", "nosniff");
  r.res.setHeader("x-frame-options", "DENY");
  r.res.setHeader("referrer-policy", "no-referrer");
  r.res.setHeader("cache-control", "no-cache");
  const dir = consoleDir();
  if (dir === undefined) return send(r.res, 503, "The admin console is not built: run `npm run build`", "text/plain; charset=utf-8");
  const type = assetType(name);
  if (type === undefined || !existsSync(dir + name)) return send(r.res, 404);
  send(r.res, 200, readFileSync(dir + name), type);
}
