// CLI `sql`: a SurrealQL shell (or one --query) against a running server over WebSocket RPC (CBOR, so values print as
// SurrealQL). The prompt shows ns/db; `help` and `exit` work; Ctrl-C clears the line; pretty output on a terminal.

import { createInterface } from "node:readline";
import type { Value } from "../value/types.js";
import type { SqlOptions } from "./args.js";
import { RpcClient, signIn } from "./rpc-client.js";
import { SHELL_HELP, WELCOME, formatAnswers, prompt, readLine, type OutputMode, type StatementAnswer } from "./sql-format.js";

/** Runs one query and prints its answers; false when a statement or the call failed. */
async function run(client: RpcClient, text: string, mode: OutputMode): Promise<boolean> {
  try {
    const answers = (await client.call("query", [text])) as unknown as StatementAnswer[];
    process.stdout.write(`${formatAnswers(answers, mode)}\n`);
    return answers.every((a) => a.status !== "ERR");
  } catch (e) {
    process.stdout.write(`ERROR: ${(e as Error).message}\n`);
    return false;
  }
}

/** The session's namespace and database now (after a USE). */
async function selected(client: RpcClient): Promise<{ ns: string | undefined; db: string | undefined }> {
  try {
    const [answer] = (await client.call("query", ["RETURN [session::ns(), session::db()]"])) as unknown as StatementAnswer[];
    const [ns, db] = (answer?.result ?? []) as Value[];
    return { ns: typeof ns === "string" ? ns : undefined, db: typeof db === "string" ? db : undefined };
  } catch {
    return { ns: undefined, db: undefined };
  }
}

export async function sql(opts: SqlOptions): Promise<number> {
  let client: RpcClient;
  try {
    client = await RpcClient.connect(opts.endpoint);
  } catch (e) {
    const cause = (e as { code?: string }).code ?? (e as Error).message;
    process.stderr.write(`surql-auth: cannot connect to ${opts.endpoint}: ${cause}\n`);
    return 1;
  }
  const mode: OutputMode = { pretty: opts.pretty ?? process.stdout.isTTY === true, json: opts.json, compat: client.compat };
  try {
    try {
      await signIn(client, opts);
    } catch (e) {
      process.stderr.write(`surql-auth: ${(e as Error).message}\n`);
      return 1;
    }
    if (opts.query !== undefined) return (await run(client, opts.query, mode)) ? 0 : 1;
    return await shell(client, opts, mode);
  } finally {
    client.close();
  }
}

async function shell(client: RpcClient, opts: SqlOptions, mode: OutputMode): Promise<number> {
  const terminal = process.stdin.isTTY === true;
  const multi = opts.multi ?? !terminal;
  if (!opts.hideWelcome) process.stdout.write(`${WELCOME}\n`);
  let where = { ns: opts.ns, db: opts.db };
  // no prompts when reading a script from a pipe
  const rl = createInterface({ input: process.stdin, output: terminal ? process.stdout : undefined, terminal, prompt: prompt(where.ns, where.db) });
  let buffer = "";
  let failed = false;
  // Ctrl-C clears what is being typed instead of leaving
  rl.on("SIGINT", () => {
    buffer = "";
    rl.write(null, { ctrl: true, name: "e" });
    rl.write(null, { ctrl: true, name: "u" });
    process.stdout.write("\n");
    rl.setPrompt(prompt(where.ns, where.db));
    rl.prompt();
  });
  rl.prompt();
  for await (const line of rl) {
    const action = readLine(buffer, line, multi);
    buffer = "";
    if (action.kind === "exit") break;
    if (action.kind === "help") process.stdout.write(`${SHELL_HELP}\n`);
    else if (action.kind === "more") {
      buffer = action.buffer;
      rl.setPrompt("... ");
      rl.prompt();
      continue;
    } else if (action.text.trim() !== "") {
      if (!(await run(client, action.text, mode))) failed = true;
      if (/\buse\b/i.test(action.text)) where = await selected(client);
    }
    rl.setPrompt(prompt(where.ns, where.db));
    rl.prompt();
  }
  rl.close();
  // a script piped in fails when one of its statements did
  return failed && !terminal ? 1 : 0;
}
