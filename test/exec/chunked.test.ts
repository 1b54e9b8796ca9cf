// A long query text (≥ 256 Ki characters; a shorter one is one query as it is) run a chunk of statements at a time answers as one query: every statement's answer in order,
// failures do not stop the rest, a BEGIN … COMMIT across a chunk's end stays one transaction, a syntax error runs nothing.

import { describe, expect, it } from "vitest";
import { executeChunked } from "../../src/exec/chunked.js";
import { Datastore } from "../../src/exec/datastore.js";
import type { Statement } from "../../src/ast/nodes.js";
import { newSession } from "../../src/exec/session.js";

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
});
