// CLI `import`: a SurrealQL file (an export, say) sent to POST /import on a running server; statement errors fail the run.

import { readFile } from "node:fs/promises";
import type { TransferOptions } from "./args.js";
import { failure, transferHeaders, transferUrl } from "./export.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function importCommand(opts: TransferOptions): Promise<number> {
  const text = opts.file === undefined || opts.file === "-" ? await readStdin() : await readFile(opts.file, "utf8");
  const res = await fetch(transferUrl(opts.endpoint, "import"), {
    method: "POST",
    headers: { ...transferHeaders(opts), accept: "application/json", "content-type": "text/plain" },
    body: text,
  });
  const body = await res.text();
  if (res.status !== 200) {
    process.stderr.write(`surql-auth: ${failure("import", res.status, body)}\n`);
    return 1;
  }
  let results: { status?: string; result?: unknown }[] = [];
  try {
    results = JSON.parse(body) as typeof results;
  } catch {
    // a server answering without a result list: nothing more to check
  }
  const errors = Array.isArray(results) ? results.map((r, i) => ({ i, r })).filter(({ r }) => r.status === "ERR") : [];
  for (const { i, r } of errors) process.stderr.write(`surql-auth: import statement ${i + 1}: ${String(r.result)}\n`);
  if (errors.length > 0) return 1;
  process.stdout.write(`imported ${Array.isArray(results) ? results.length : 0} statement result(s)\n`);
  return 0;
}
