// CLI `is-ready`: exit 0 when the server answers GET /health, as `surreal is-ready`.

import type { IsReadyOptions } from "./args.js";

/** The HTTP(S) health URL of an endpoint given as http(s):// or ws(s)://, with or without /rpc. */
export function healthUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  url.protocol = url.protocol.replace(/^ws/, "http");
  url.pathname = `${url.pathname.replace(/\/(rpc|sql)?\/?$/, "")}/health`;
  return url;
}

export async function isReady(opts: IsReadyOptions): Promise<number> {
  try {
    const res = await fetch(healthUrl(opts.endpoint), { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    if (res.ok) {
      process.stdout.write("OK\n");
      return 0;
    }
    process.stderr.write(`surql-auth: the server at ${opts.endpoint} is not ready (HTTP ${res.status})\n`);
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    process.stderr.write(`surql-auth: cannot reach ${opts.endpoint}: ${cause?.code ?? cause?.message ?? (e as Error).message}\n`);
  }
  return 1;
}
