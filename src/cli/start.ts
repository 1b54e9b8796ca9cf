// CLI `start`: opens the store, builds the datastore (root user, imports) and serves HTTP + WebSocket RPC (HTTPS + WSS
// with --web-crt / --web-key) until SIGINT / SIGTERM, then closes the server and the store.

import { readFile } from "node:fs/promises";
import { ImportError, SurqlAuth, auditFileWriter } from "../index.js";
import { openStore, parseStoreSpec } from "../store/kv/open.js";
import type { KvStore } from "../store/kv/types.js";
import type { NetworkOptions } from "../server/types.js";
import type { StartOptions } from "./args.js";
import { loadThrottleLimits } from "./limits.js";
import { createLogger } from "./logger.js";

/** The store spec as logged: a postgres:// URL's password stays out of the log. */
function shownSpec(spec: string): string {
  return spec.replace(/^(\w+:\/\/[^:@/]*):[^@/]*@/, "$1:***@");
}

/** What the user is told at start about the store: which one, and whether data outlives the process. */
export function storageNotice(spec: string): string {
  const shown = shownSpec(spec);
  switch (parseStoreSpec(spec).kind) {
    case "memory":
      return `storage: memory (data is lost when the server stops; give a PATH such as file:data.db to keep it)`;
    case "file":
      return `storage: ${shown} (SQLite file; data survives restarts)`;
    case "postgres":
      return `storage: ${shown} (PostgreSQL; data survives restarts and may be shared by several servers)`;
  }
}

function banner(version: string, compat: 1 | 2): string {
  return `surql-auth ${version} — SurrealDB ${compat === 1 ? "1.x" : "2.x"} compatible authentication server\n`;
}

/** The network options of the flags; the TLS files are read here so a missing one fails before listening. */
async function networkOptions(opts: StartOptions): Promise<NetworkOptions> {
  return {
    ...(opts.tls ? { tls: { cert: await readFile(opts.tls.cert), key: await readFile(opts.tls.key) } } : {}),
    allowOrigin: opts.allowOrigin,
    clientIp: opts.clientIp,
    noIdentificationHeaders: !opts.identificationHeaders,
    denyArbitraryQuery: opts.denyArbitraryQuery,
  };
}

export async function start(opts: StartOptions, version: string): Promise<void> {
  const logger = createLogger(opts.log, { format: opts.logFormat });
  if (opts.banner) process.stdout.write(banner(version, opts.compat));
  let network: NetworkOptions;
  try {
    network = await networkOptions(opts);
  } catch (e) {
    logger.error(`cannot read the TLS certificate or key: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (${(e as { path?: string }).path ?? ""})`);
    process.exitCode = 1;
    return;
  }
  let throttle: Awaited<ReturnType<typeof loadThrottleLimits>>;
  try {
    throttle = await loadThrottleLimits(opts.limitsFile, opts.throttle);
  } catch (e) {
    logger.error((e as Error).message);
    process.exitCode = 1;
    return;
  }
  let auditFile: ReturnType<typeof auditFileWriter> | undefined;
  try {
    auditFile = opts.auditFile === undefined ? undefined : auditFileWriter(opts.auditFile);
  } catch (e) {
    logger.error(`cannot open the audit file ${opts.auditFile}: ${(e as Error).message}`);
    process.exitCode = 1;
    return;
  }
  let db: SurqlAuth;
  let storage: KvStore;
  try {
    storage = await openStore(opts.storage);
  } catch (e) {
    logger.error(`cannot open the store ${shownSpec(opts.storage)}: ${(e as Error).message}`);
    auditFile?.close();
    process.exitCode = 1;
    return;
  }
  logger.info(storageNotice(opts.storage));
  try {
    db = await SurqlAuth.open({
      storage,
      compat: opts.compat,
      auth: !opts.unauthenticated,
      allowGuests: opts.allowGuests,
      allowNet: opts.allowNet,
      v1TokenDuration: opts.v1TokenSeconds,
      queryTimeoutMs: opts.queryTimeoutMs,
      deniedFunctions: opts.denyFuncs,
      transactionTimeoutMs: opts.transactionTimeoutMs,
      logger,
      ...(auditFile ? { audit: [auditFile.write] } : {}),
      logDenials: opts.logDenials,
      ...(opts.user !== undefined && opts.pass !== undefined ? { root: { user: opts.user, pass: opts.pass } } : {}),
      import: opts.imports,
      throttle,
    });
  } catch (e) {
    await storage.close();
    auditFile?.close();
    if (e instanceof ImportError) {
      logger.error(`import failed: ${e.message}`);
      if (e.snippet) process.stderr.write(`${e.snippet.replace(/^/gm, "  ")}\n`);
      process.exitCode = 1;
      return;
    }
    throw e;
  }
  if (opts.unauthenticated) logger.warn("authentication is disabled: anonymous sessions may do everything");
  if (!opts.allowNet) logger.warn("all capabilities are denied: guests may not query and JWKS URLs are not fetched");
  const { server, host, port } = await db.listen(opts.host, opts.port, { maxConnectionsPerIp: opts.maxConnectionsPerIp }, network);
  const scheme = opts.tls ? "https" : "http";
  logger.info(`surql-auth (SurrealDB ${opts.compat === 1 ? "1.x" : "2.x"} compatible) listening on ${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal} received, shutting down`);
    server
      .close()
      .then(() => storage.close())
      .then(() => auditFile?.close())
      .then(
        () => process.exit(0),
        (e) => {
          logger.error("shutdown failed", e);
          process.exit(1);
        },
      );
  };
  // log rotation: the audit file is opened again at its path
  if (auditFile) process.on("SIGHUP", () => auditFile.reopen());
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
