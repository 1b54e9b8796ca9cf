// The execution budget: a query's time limit ends CPU-bound loops with SurrealDB's timeout error and cancels their
// writes; statements yield to the event loop while they run; a statement's TIMEOUT clause tightens the limit.
// No timings are asserted: the vitest timeout is the bound, interleaving is proven by ordering.

import { describe, expect, it } from "vitest";
import { Budget } from "../../src/exec/budget.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const TIMEOUT = "The query was not executed because it exceeded the timeout";
/** A list of `n` strings in both compats (1.x has no array::range). */
const items = (n: number) => `string::split(string::repeat('a,', ${n - 1}) + 'a', ',')`;
/** F7: about 10 s of nested loops without a time limit. */
const NESTED_LOOPS = `FOR $i IN ${items(1000)} { FOR $j IN ${items(1000)} { LET $y = $j; } }; RETURN 1`;

describe.each([1, 2] as const)("compat %i", (compat) => {
  it("a query past its time limit ends with SurrealDB's timeout error, and so does every statement after it", async () => {
    const ds = newDs({ compat, auth: false, queryTimeoutMs: 200 });
    expect(await run(ds, rootSession(), NESTED_LOOPS)).toEqual([{ err: TIMEOUT }, { err: TIMEOUT }]);
    // the next query has its own budget
    expect(await run(ds, rootSession(), "RETURN 1")).toEqual([{ ok: 1 }]);
  });

  it("nested builtin calls meet the deadline between them: a sort running past the limit ends the statement with the timeout (attack pass 7, E6)", async () => {
    const ds = newDs({ compat, auth: false, queryTimeoutMs: 100 });
    // one statement, no loop: before, its only checkpoint was the statement's own, so it answered OK however long it
    // ran (here seconds: a million strings split, then sorted three times)
    const sorts = "array::len(array::sort(array::sort(array::sort(string::split(string::repeat('hgfedcba', 120000), '')))))";
    expect(await run(ds, rootSession(), `RETURN ${sorts}`)).toEqual([{ err: TIMEOUT }]);
  });

  it("a record user's loop of writes is cancelled as a whole when it times out", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 200 });
    await run(ds, rootSession(), "DEFINE TABLE note SCHEMALESS PERMISSIONS FULL");
    const user = recordSession("user", "u1");
    const out = await run(ds, user, `CREATE note:first; FOR $i IN ${items(1000)} { FOR $j IN ${items(1000)} { CREATE note SET i = $i; } }`);
    expect(out[1]).toEqual({ err: TIMEOUT });
    expect(await run(ds, rootSession(), "RETURN array::len(SELECT * FROM note)")).toEqual([{ ok: 1 }]);
  });

  it("sleep() wakes at the query's deadline and the query times out (attack A1: RETURN sleep(25d) held the server)", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 200 });
    const user = recordSession("user", "u1");
    expect(await run(ds, user, "RETURN sleep(25d); RETURN 1")).toEqual([{ err: TIMEOUT }, { err: TIMEOUT }]);
    // a sleep that ends within the limit is an ordinary statement
    expect(await run(ds, user, "RETURN sleep(1ms); RETURN 1")).toEqual([{ ok: null }, { ok: 1 }]);
  });

  it("a graph step from many sources honours the time limit (every edge read is a checkpoint)", async () => {
    const ds = newDs({ compat, auth: false });
    await run(ds, rootSession(), `FOR $i IN ${items(300)} { RELATE t:1->e->t:2 }`);
    // 10,000 sources × 300 edges: 3,000,000 edge reads (several seconds on any machine), stopped by a 1 s TIMEOUT.
    // (With 200 ms, a loaded machine that paused the process for longer than that before the query's first 10 ms
    // slice ended saw the deadline at the first look at the clock, before any yield: the order below flipped.)
    const sources = `[${Array(10_000).fill("t:1").join(", ")}]`;
    const order: string[] = [];
    const query = run(ds, rootSession(), `SELECT VALUE array::len((${sources})->e) FROM [1] TIMEOUT 1s`).then((r) => (order.push("query"), r));
    setTimeout(() => order.push("timer"), 0);
    expect(await query).toEqual([{ err: TIMEOUT }]);
    // it yielded to the event loop while it ran
    expect(order).toEqual(["timer", "query"]);
    expect(await run(ds, rootSession(), "RETURN array::len(t:1->e)")).toEqual([{ ok: 300 }]);
  });

  it("a BEGIN … COMMIT block that times out writes nothing", async () => {
    const ds = newDs({ compat, auth: false, queryTimeoutMs: 200 });
    const out = await run(ds, rootSession(), `BEGIN; CREATE t:1; ${NESTED_LOOPS.replace("; RETURN 1", "")}; COMMIT;`);
    expect(out).toEqual([{ err: "The query was not executed due to a failed transaction" }, { err: TIMEOUT }]);
    expect(await run(ds, rootSession(), "SELECT * FROM t")).toEqual([{ ok: [] }]);
  });

  it("other work runs on the event loop while a long query runs (a timer fires before the query answers)", async () => {
    const ds = newDs({ compat, auth: false, queryTimeoutMs: 300 });
    const order: string[] = [];
    const query = ds.execute(NESTED_LOOPS, rootSession()).then(() => order.push("query"));
    setTimeout(() => order.push("timer"), 0);
    await query;
    expect(order).toEqual(["timer", "query"]);
  });

  it("a second session's query runs alongside the running one (no queue), with its own full budget", async () => {
    const ds = newDs({ compat, auth: false, queryTimeoutMs: 300 });
    const order: string[] = [];
    const long = run(ds, rootSession(), NESTED_LOOPS).then((r) => (order.push("long"), r));
    const short = run(ds, recordSession("user", "u2"), "FOR $i IN [1, 2, 3] { LET $x = $i; }; RETURN 2").then((r) => (order.push("short"), r));
    expect(await long).toEqual([{ err: TIMEOUT }, { err: TIMEOUT }]);
    expect(await short).toEqual([{ ok: null }, { ok: 2 }]);
    expect(order).toEqual(["short", "long"]);
  });

  it("a statement's TIMEOUT clause: TIMEOUT 0s fails the statement and cancels its write (oracle)", async () => {
    const ds = newDs({ compat, auth: false });
    const out = await run(ds, rootSession(), "CREATE person:test SET a = 1 TIMEOUT 0s; SELECT * FROM person; SELECT * FROM [1,2,3] TIMEOUT 0s; SELECT * FROM [1,2,3] TIMEOUT 1s;");
    expect(out).toEqual([{ err: TIMEOUT }, { ok: [] }, { err: TIMEOUT }, { ok: [1, 2, 3] }]);
  });

  it("a subquery's TIMEOUT counts in 2.x only (oracle)", async () => {
    const ds = newDs({ compat, auth: false });
    const out = await run(ds, rootSession(), "LET $x = (SELECT * FROM [1] TIMEOUT 0s); RETURN $x;");
    expect(out).toEqual(compat === 2 ? [{ err: TIMEOUT }, { ok: null }] : [{ ok: null }, { ok: [1] }]);
  });
});

describe("Budget", () => {
  it("stays expired once past its deadline, so a swallowed timeout cannot let the work go on", async () => {
    const b = Budget.of(Infinity).within(0);
    await new Promise((r) => setTimeout(r, 2));
    // the clock is read every few checkpoints
    expect(() => {
      for (let i = 0; i < 100; i++) void b.checkpoint();
    }).toThrow(TIMEOUT);
    expect(b.expired).toBe(true);
    expect(() => b.checkpoint()).toThrow(TIMEOUT);
  });

  it("an unlimited budget never expires", async () => {
    const b = Budget.of(0);
    for (let i = 0; i < 100; i++) await b.checkpoint();
    expect(b.expired).toBe(false);
  });
});

describe.each([1, 2] as const)("compat %i: long flat expressions", (compat) => {
  const chain = (term: string, op: string) => Array(100_000).fill(term).join(` ${op} `);
  it.each([
    ["RETURN " + chain("1", "+"), 100_000],
    ["RETURN " + chain("true", "&&"), true],
    ["RETURN " + chain("1", "+ 1 *"), 100_000],
    ["RETURN " + chain("1", "**"), 1],
  ])("a left-deep chain of 100,000 terms is evaluated without overflowing the stack (%#)", async (text, expected) => {
    const ds = newDs({ compat, auth: false });
    expect(await run(ds, rootSession(), text)).toEqual([{ ok: expected }]);
  });

  it("a WHERE of 100,000 conjuncts is planned without recursion", async () => {
    const ds = newDs({ compat, auth: false });
    await run(ds, rootSession(), "CREATE t:1 SET a = 1");
    expect(await run(ds, rootSession(), `SELECT * FROM t WHERE ${chain("a = 1", "AND")}`)).toEqual([{ ok: [{ a: 1, id: "t:1" }] }]);
  });
});

describe.each([1, 2] as const)("compat %i: functions that build collections from collections", (compat) => {
  const cap = (name: string) => `Incorrect arguments for function ${name}(). Output must not exceed 1048576 bytes.`;
  const items3000 = items(3000);
  it.each([
    ["array::combine", `array::combine(${items3000}, ${items3000})`],
    ["array::concat", `array::concat(${Array(50).fill(items3000).join(", ")})`],
    ["array::flatten", `array::flatten([${Array(50).fill(items3000).join(", ")}])`],
    ["array::group", `array::group([${Array(50).fill(items3000).join(", ")}])`],
    ["array::transpose", `array::transpose([${items3000}, ${items3000}, ${Array(48).fill(items3000).join(", ")}])`],
  ])("%s refuses an output over the allocation limit (F7)", async (name, call) => {
    const ds = newDs({ compat, auth: false });
    expect(await run(ds, rootSession(), `RETURN array::len(${call})`)).toEqual([{ err: cap(name) }]);
  });

  // 2.x: closures number the elements
  it.runIf(compat === 2)("set functions on 100,000 distinct values answer (hashed, not pairwise)", async () => {
    const ds = newDs({ compat, auth: false });
    const big = `string::split(string::repeat('a,', 99999) + 'a', ',').map(|$v, $i| $i)`;
    const text = `RETURN [array::len(array::distinct(${big})), array::len(array::intersect(${big}, [5, 7, 7])), array::len(array::complement(${big}, [1, 2]))]`;
    expect(await run(ds, rootSession(), text)).toEqual([{ ok: [100_000, 2, 99_998] }]);
  });
});

describe.each([1, 2] as const)("compat %i: value nesting depth", (compat) => {
  const DEPTH = "Reached excessive computation depth due to functions, subqueries, or futures";

  it.each([
    ["an object literal", "{a: d}"],
    ["a function", "array::append([], d)"],
  ])("F8: nesting a record's value deeper with %s in a loop ends with SurrealDB's depth error, writes cancelled (oracle)", async (_how, nest) => {
    const ds = newDs({ compat, auth: false });
    const out = await run(ds, rootSession(), `CREATE note:deep SET d = []; FOR $i IN ${items(3000)} { UPDATE note:deep SET d = ${nest} RETURN NONE; }; RETURN 1`);
    expect(out.slice(1)).toEqual([{ err: DEPTH }, { ok: 1 }]);
    // the record stays as it was before the loop, and readable
    expect(await run(ds, rootSession(), "SELECT * FROM note:deep")).toEqual([{ ok: [{ d: [], id: "note:deep" }] }]);
  });

  it("a value nested 100 deep is stored and read back (SurrealDB allows it too)", async () => {
    const ds = newDs({ compat, auth: false });
    const out = await run(ds, rootSession(), `CREATE note:ok SET d = []; FOR $i IN ${items(100)} { UPDATE note:ok SET d = [d] RETURN NONE; }; SELECT VALUE string::len(<string> d) FROM note:ok`);
    expect(out.slice(1)).toEqual([{ ok: null }, { ok: [202] }]);
  });

  it.runIf(compat === 2)("a closure folding a value 300 deep fails, 100 deep answers (oracle)", async () => {
    const ds = newDs({ compat, auth: false });
    const fold = (n: number) => `RETURN string::len(<string> array::fold(array::range(0, ${n}), [], |$acc, $v| [$acc]))`;
    expect(await run(ds, rootSession(), `${fold(300)}; ${fold(100)}`)).toEqual([{ err: DEPTH }, { ok: 202 }]);
  });
});
