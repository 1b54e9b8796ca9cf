// CLI `start`: builds the datastore (root user, imports) and serves HTTP + WebSocket RPC until SIGINT / SIGTERM.

import { ImportError, SurqlAuth } from "../index.js";
import type { StartOptions } from "./args.js";
import { createLogger } from "./logger.js";

export async function start(opts: StartOptions): Promise<void> {
  const logger = createLogger(opts.log);
  let db: SurqlAuth;
  try {
    db = await SurqlAuth.open({
      compat: opts.compat,
      auth: !opts.unauthenticated,
      allowGuests: opts.allowGuests,
      v1TokenDuration: opts.v1TokenSeconds,
      queryTimeoutMs: opts.queryTimeoutMs,
      logger,
      ...(opts.user !== undefined && opts.pass !== undefined ? { root: { user: opts.user, pass: opts.pass } } : {}),
      import: opts.imports,
    });
  } catch (e) {
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
    server.close().then(
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
