// CLI `start`: opens the store, builds the datastore (root user, imports) and serves HTTP + WebSocket RPC until
// SIGINT / SIGTERM, then closes the server and the store.

import { ImportError, SurqlAuth, auditFileWriter } from "../index.js";
import { openStore } from "../store/kv/open.js";
import type { KvStore } from "../store/kv/types.js";
import type { StartOptions } from "./args.js";
import { createLogger } from "./logger.js";

export async function start(opts: StartOptions): Promise<void> {
  const logger = createLogger(opts.log, { format: opts.logFormat });
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
  // a postgres:// URL's password stays out of the log
  const shown = opts.storage.replace(/^(\w+:\/\/[^:@/]*):[^@/]*@/, "$1:***@");
  try {
    storage = await openStore(opts.storage);
  } catch (e) {
    logger.error(`cannot open the store ${shown}: ${(e as Error).message}`);
    auditFile?.close();
    process.exitCode = 1;
    return;
  }
  logger.info(`storage: ${shown}`);
  try {
    db = await SurqlAuth.open({
      storage,
      compat: opts.compat,
      auth: !opts.unauthenticated,
      allowGuests: opts.allowGuests,
      v1TokenDuration: opts.v1TokenSeconds,
      queryTimeoutMs: opts.queryTimeoutMs,
      transactionTimeoutMs: opts.transactionTimeoutMs,
      logger,
      ...(auditFile ? { audit: [auditFile.write] } : {}),
      logDenials: opts.logDenials,
      ...(opts.user !== undefined && opts.pass !== undefined ? { root: { user: opts.user, pass: opts.pass } } : {}),
      import: opts.imports,
    });
  } catch (e) {
    await storage.close();
    auditFile?.close();
    if (e instanceof ImportError) {
      logger.error(`import failed: ${e.message}`);
      process.exitCode = 1;
      return;
    }
    throw e;
  }
  if (opts.unauthenticated) logger.warn("authentication is disabled: anonymous sessions may do everything");
  const { server, host, port } = await db.listen(opts.host, opts.port, { maxConnectionsPerIp: opts.maxConnectionsPerIp });
  logger.info(`surql-auth (SurrealDB ${opts.compat === 1 ? "1.x" : "2.x"} compatible) listening on http://${host.includes(":") ? `[${host}]` : host}:${port}`);
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
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
