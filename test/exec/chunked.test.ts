// A long query text (≥ 256 Ki characters; a shorter one is one query as it is) run a chunk of statements at a time answers as one query: every statement's answer in order,
// failures do not stop the rest, a BEGIN … COMMIT across a chunk's end stays one transaction, a syntax error runs nothing.

import { describe, expect, it } from "vitest";
import { chunkedResponses } from "../../src/exec/chunked.js";
import type { QueryResponse } from "../../src/exec/contract.js";
import { Datastore } from "../../src/exec/datastore.js";
import type { Statement } from "../../src/ast/nodes.js";
import { newSession } from "../../src/exec/session.js";

/** Every answer of the chunks, in order (one query's list). */
async function executeChunked(...args: Parameters<typeof chunkedResponses>): Promise<QueryResponse[]> {
  const out: QueryResponse[] = [];
  for await (const answers of chunkedResponses(...args)) out.push(...answers);
  return out;
}

const root = () => newSession({ ns: "a", db: "b", actor: { level: "Root", ns: undefined, db: undefined, id: "r", roles: ["OWNER"] } });

describe.each([1, 2] as const)("executeChunked (compat %i)", (compat) => {
  it("runs a long text of 2,500 statements in chunks with one query's answers; a block across a chunk's end stays whole", async () => {
    const ds = new Datastore({ compat });
    const calls: number[] = [];
    const engine = { compat, execute: (q: string | readonly Statement[], s: ReturnType<typeof root>) => (calls.push(typeof q === "string" ? -1 : q.length), ds.execute(q, s)) };
    const lines: string[] = [];
    for (let i = 0; i < 995; i++) lines.push(`CREATE t:${i};`);
    lines.push("BEGIN;", "CREATE u:1;", ...Array.from({ length: 10 }, (_, i) => `CREATE u:${i + 2};`), "CREATE u:1;", "COMMIT;");
    for (let i = 0; i < 1490; i++) lines.push(`CREATE t:${i % 1000}; -- ${"x".repeat(200)}`);
    const answers = await executeChunked(engine, lines.join("\n"), root());
    expect(calls.every((n) => n > 0 && n <= 1014)).toBe(true);
    expect(calls.length).toBeGreaterThan(2);
    const whole = await new Datastore({ compat }).execute(lines.join("\n"), root());
    expect(answers.map((r) => [r.status, String(r.result).slice(0, 40)])).toEqual(whole.map((r) => [r.status, String(r.result).slice(0, 40)]));
    const [u] = await ds.execute("SELECT VALUE id FROM u", root());
    expect(u!.result).toEqual([]);
  }, 60_000);

  it("a syntax error anywhere runs nothing, answered as the whole text's parse error; a LET keeps the text one query", async () => {
    const ds = new Datastore({ compat });
    await expect(executeChunked(ds, `${"CREATE t:1;\n".repeat(30_000)}CREATE t:2 SET = 1;`, root())).rejects.toThrow(/Parse error/);
    const [t] = await ds.execute("SELECT VALUE id FROM t", root());
    expect(t!.result).toEqual([]);
    const calls: unknown[] = [];
    const engine = { compat, execute: (q: string | readonly Statement[], s: ReturnType<typeof root>) => (calls.push(q), ds.execute(q, s)) };
    const text = `LET $x = 1;\n${"RETURN $x;\n".repeat(30_000)}`;
    const answers = await executeChunked(engine, text, root());
    expect(calls).toEqual([text]);
    expect(answers.at(-1)!.result).toBe(1n);
  }, 60_000);

  it("runs a chunk only when its answers are asked for, gives the event loop a turn after a slow one, and stops when aborted", async () => {
    const text = Array.from({ length: 3000 }, (_, i) => `CREATE t:${i}; -- ${"x".repeat(100)}`).join("\n");
    const ds = new Datastore({ compat });
    const turns: boolean[] = [];
    let turn = false;
    // each chunk takes 30 ms of this thread (past the 20 ms a turn may last)
    const execute = (q: string | readonly Statement[], s: ReturnType<typeof root>) => {
      turns.push(turn);
      turn = false;
      setImmediate(() => (turn = true));
      for (const t0 = performance.now(); performance.now() - t0 < 30; );
      return ds.execute(q, s);
    };
    const chunks = chunkedResponses({ compat, execute }, text, root());
    await chunks.next();
    await new Promise((r) => setTimeout(r, 50));
    expect(turns).toHaveLength(1);
    await chunks.next();
    await chunks.next();
    expect(turns.slice(1)).toEqual([true, true]);
    await chunks.return(undefined);
    // aborted: no chunk runs after the one in flight
    const stop = new AbortController();
    const calls: number[] = [];
    const counted = { compat, execute: (q: string | readonly Statement[], s: ReturnType<typeof root>) => (calls.push(q.length), ds.execute(q, s)) };
    for await (const _ of chunkedResponses(counted, text.replaceAll("CREATE t:", "CREATE u:"), root(), stop.signal)) stop.abort();
    expect(calls).toHaveLength(1);
  }, 60_000);
});
