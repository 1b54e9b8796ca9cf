// CLI `export`: GET /export on a running server (Basic auth, surreal-ns / surreal-db headers) into a file or stdout.

import { writeFile } from "node:fs/promises";
import { REDACTED_EXPORT } from "../exec/export.js";
import type { TransferOptions } from "./args.js";

/** Headers for /export and /import: the database to use and, with --token, Bearer, or with --user, HTTP Basic credentials at --auth-level. */
export function transferHeaders(opts: Pick<TransferOptions, "ns" | "db" | "token" | "user" | "pass" | "authLevel">): Record<string, string> {
  const h: Record<string, string> = { "surreal-ns": opts.ns, "surreal-db": opts.db };
  if (opts.token !== undefined) h.authorization = `Bearer ${opts.token}`;
  else if (opts.user !== undefined) {
    h.authorization = `Basic ${Buffer.from(`${opts.user}:${opts.pass ?? ""}`).toString("base64")}`;
    if (opts.authLevel !== "root") h["surreal-auth-ns"] = opts.ns;
    if (opts.authLevel === "database") h["surreal-auth-db"] = opts.db;
  }
  return h;
}

export function transferUrl(endpoint: string, route: "export" | "import"): URL {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/(rpc|sql)?\/?$/, "")}/${route}`;
  return url;
}

export const REDACTED_WARNING = "export: secrets (password hashes, signing keys) were redacted for this user's role; users and access methods are commented out. Export as an OWNER to include them.";

/** A failed request as the CLI reports it. */
export function failure(route: string, status: number, body: string): string {
  return `${route} failed (HTTP ${status}): ${body.trim() || "no details"}`;
}

export async function exportCommand(opts: TransferOptions): Promise<number> {
  const res = await fetch(transferUrl(opts.endpoint, "export"), { headers: transferHeaders(opts) });
  const body = await res.text();
  if (res.status !== 200) {
    process.stderr.write(`surql-auth: ${failure("export", res.status, body)}\n`);
    return 1;
  }
  if (opts.file === undefined || opts.file === "-") process.stdout.write(body);
  else await writeFile(opts.file, body);
  // the server redacts secrets for a role that may not define them: say so where the operator looks
  if (body.includes(`\n-- ${REDACTED_EXPORT}\n`)) process.stderr.write(`surql-auth: ${REDACTED_WARNING}\n`);
  return 0;
}
