// Value size through the engine (attack re-check R7, R8): values built by sharing — `{a: $x, b: $x}` doubled in a fold
// or a LET chain, nested array::repeat, many rows repeating one value — are refused where they are built, as a record
// user, instead of hanging the server in a deep walk. Answers must come fast (vitest's timeout is the bound: the
// attack inputs ran for minutes before); no timings are asserted.

import { describe, expect, it } from "vitest";
import { MAX_RESULT_SIZE, MAX_VALUE_SIZE } from "../../src/value/size.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const TOO_LARGE = `The value is too large: a value must not exceed ${MAX_VALUE_SIZE} bytes`;
const RESULTS_TOO_LARGE = `The query results are too large: together they must not exceed ${MAX_RESULT_SIZE} bytes`;
const ROWS_TOO_LARGE = `The value is too large: a value must not exceed ${MAX_RESULT_SIZE} bytes`;
/** `LET $x0 = {}; LET $x1 = {a: $x0, b: $x0}; …`: each level doubles the tree. */
const letChain = (n: number) => ["LET $x0 = {};", ...Array.from({ length: n }, (_, i) => `LET $x${i + 1} = {a: $x${i}, b: $x${i}};`)].join(" ");
/** A list of `n` strings in both compats (1.x has no array::range). */
const items = (n: number) => `string::split(string::repeat('a,', ${n - 1}) + 'a', ',')`;

async function setup(compat: 1 | 2) {
  const ds = newDs({ compat });
  await run(ds, rootSession(), "DEFINE TABLE note SCHEMALESS PERMISSIONS FULL");
  return { ds, user: recordSession("user", "u1") };
}

/** Each answer's status: "ok", or the error text (large answers are never compared whole: a failed diff of one takes minutes). */
const statuses = (out: { ok?: unknown; err?: string }[]) => out.map((o) => ("err" in o ? o.err : "ok"));
/** $x17 of the LET chain: 34 × 2¹⁷ − 18 bytes as a tree, about a quarter of the limit; $x18 about half of it. */
const X17 = 34 * 2 ** 17 - 18;

describe.each([1, 2] as const)("compat %i: values larger than the limit as a tree", (compat) => {
  it("R7: a LET chain sharing the previous value twice is refused at the level that passes the limit", async () => {
    const { ds, user } = await setup(compat);
    const out = await run(ds, user, `${letChain(30)} CREATE note:big SET d = $x30 RETURN NONE; RETURN $x18 = {a: $x17, b: $x17}`);
    // levels 0–18 fit, level 19 does not (its parameter stays unset, so the chain starts again from NONE)
    expect(statuses(out)).toEqual([...Array(19).fill("ok"), TOO_LARGE, ...Array(13).fill("ok")]);
    expect(out[32]).toEqual({ ok: true });
  });

  it("R7: a value under the limit, shared, is refused where a literal or a write would repeat it past the limit; nothing is stored", async () => {
    const { ds, user } = await setup(compat);
    const text = `${letChain(18)} CREATE note:a SET d = $x18 RETURN NONE; CREATE note:b SET d = $x18, e = $x18 RETURN NONE;
      UPDATE note:a SET e = $x18 RETURN NONE; UPDATE note:a MERGE {e: $x18} RETURN NONE; RETURN [$x18, $x18]`;
    expect(statuses((await run(ds, user, text)).slice(19))).toEqual(["ok", TOO_LARGE, TOO_LARGE, TOO_LARGE, TOO_LARGE]);
    expect(await run(ds, rootSession(), "SELECT VALUE id FROM note; SELECT VALUE object::keys($this) FROM note")).toEqual([{ ok: ["note:a"] }, { ok: [["d", "id"]] }]);
  });

  it("error texts count towards the query's results: a cast error or THROW quoting a 4,000,000-character string (attack pass 12, J5)", async () => {
    const { ds, user } = await setup(compat);
    const quoting = (n: number, statement: string) => `LET $a = string::repeat('9', 1000000); LET $s = $a + $a + $a + $a; ${`${statement}; `.repeat(n)}RETURN 1;`;
    // each error quotes 4,000,000 characters: 16 fit in MAX_RESULT_SIZE, the 17th and later answer the cap's error
    const big = (o: { ok?: unknown; err?: string }) => ("err" in o ? (o.err!.length > 3_900_000 ? "quoted" : o.err) : "ok");
    for (const statement of ["RETURN <int> $s", "THROW $s"]) {
      const out = (await run(ds, user, quoting(20, statement))).map(big);
      expect(out).toEqual(["ok", "ok", ...Array(16).fill("quoted"), ...Array(4).fill(RESULTS_TOO_LARGE), "ok"]);
    }
  });

  it("rows that repeat one value count as the tree they make: a subquery's rows, a statement's, and a query's results together", async () => {
    const { ds, user } = await setup(compat);
    // a row {v: $x17} is X17 + 17 bytes: 15 rows fit in MAX_RESULT_SIZE, 16 do not
    expect(Math.floor((MAX_RESULT_SIZE - 16) / (X17 + 17))).toBe(15);
    const rows = (n: number) => `SELECT $x17 AS v FROM ${items(n)}`;
    const out = await run(ds, user, `${letChain(17)} RETURN array::len(${rows(15)}); RETURN array::len(${rows(16)}); ${rows(16)}; RETURN 1`);
    expect(statuses(out.slice(18))).toEqual(["ok", ROWS_TOO_LARGE, RESULTS_TOO_LARGE, "ok"]);
    expect(out[18]).toEqual({ ok: 15 });
    // together: after four small answers (16 bytes each), three 16 MiB arrays of 4 Mi-character strings fit, a fourth
    // does not, a small one still does (a string is at most 4 Mi characters: attack pass 11, I5)
    const s = `LET $s = string::repeat('a', 1048576); LET $s4 = $s + $s + $s + $s; LET $t = [$s4, $s4, $s4, string::slice($s4, 16)]; RETURN array::len($t)`;
    const together = await run(ds, user, `${s}; RETURN $t; RETURN $t; RETURN $t; RETURN $t; RETURN 1; RETURN $t`);
    expect(statuses(together)).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok", RESULTS_TOO_LARGE, "ok", RESULTS_TOO_LARGE]);
    expect(together[3]).toEqual({ ok: 4 });
  });

  it("a record id whose key repeats a shared value is refused like an array", async () => {
    const { ds, user } = await setup(compat);
    const ids = ["LET $r0 = 1;", ...Array.from({ length: 30 }, (_, i) => `LET $r${i + 1} = t:[$r${i}, $r${i}];`)].join(" ");
    const out = await run(ds, user, `${ids} RETURN string::len(<string> $r30)`);
    // levels 0–18 fit, level 19 does not (the chain then starts again from NONE, and its printed form is short)
    expect(statuses(out)).toEqual([...Array(19).fill("ok"), TOO_LARGE, ...Array(12).fill("ok")]);
  });

  it("a mock of more record ids than the largest value holds is refused before it is made", async () => {
    const { ds, user } = await setup(compat);
    const out = await run(ds, user, "RETURN array::len(|t:1..1000000000|); RETURN array::len(|t:1000000000|); RETURN array::len(|t:1..1000|); RETURN array::len(|t:1000|)");
    expect(out).toEqual([{ err: TOO_LARGE }, { err: TOO_LARGE }, { ok: 1000 }, { ok: 1000 }]);
  });

  it("a path over many record ids that repeats one large record is refused", async () => {
    const { ds, user } = await setup(compat);
    const ids = Array(5).fill("note:a").join(", ");
    const out = await run(ds, user, `${letChain(17)} CREATE note:a SET d = $x17 RETURN NONE; RETURN array::len([${ids}].d); RETURN [${ids}].d.len(); RETURN array::len([${ids}, ${ids}].id)`);
    expect(out.slice(19)).toEqual([{ err: TOO_LARGE }, { ok: [2, 2, 2, 2, 2] }, { ok: 10 }]);
  });
});

describe.each([1, 2] as const)("compat %i: strings built from many parts", (compat) => {
  it("array::join repeating a long separator is refused before the string is built", async () => {
    const { ds, user } = await setup(compat);
    const sep = "LET $sep = string::repeat('b', 1000000)";
    const out = await run(ds, user, `${sep}; RETURN string::len(array::join(${items(100_000)}, $sep)); RETURN string::len(array::join(${items(4)}, $sep))`);
    expect(out).toEqual([{ ok: null }, { err: "The string is too long: a string must not exceed 4194304 characters" }, { ok: 3_000_004 }]);
  });
});

describe("compat 2: closures and array builders", () => {
  it("R7: a fold doubling a shared object 30 times answers the size error", async () => {
    const { ds, user } = await setup(2);
    const fold = (n: number) => `RETURN type::is::object(array::fold(array::range(0, ${n}), {}, |$acc, $i| {a: $acc, b: $acc}))`;
    expect(await run(ds, user, `${fold(30)}; ${fold(18)}`)).toEqual([{ err: TOO_LARGE }, { ok: true }]);
  });

  it("R7: a closure's result is held to the limit when a function builds it", async () => {
    const { ds, user } = await setup(2);
    const out = await run(ds, user, "RETURN array::len(array::fold(array::range(0, 40), [1], |$acc, $i| array::repeat($acc, 2)))");
    expect(out).toEqual([{ err: TOO_LARGE }]);
  });

  it("R8: nested array::repeat past the limit is refused and nothing is stored; 10⁶ elements are stored and read back", async () => {
    const { ds, user } = await setup(2);
    const out = await run(ds, user, `CREATE note:rep3 SET d = array::repeat(array::repeat(array::repeat(1, 100), 1000), 100) RETURN NONE;
      RETURN array::len(array::repeat(array::repeat(array::repeat(1, 1000), 1000), 1000));
      CREATE note:rep2 SET d = array::repeat(array::repeat(1, 1000), 1000) RETURN NONE;
      SELECT VALUE [array::len(d), array::len(d[999])] FROM note:rep2`);
    expect(out).toEqual([{ err: TOO_LARGE }, { err: TOO_LARGE }, { ok: [] }, { ok: [[1000, 1000]] }]);
    expect(await run(ds, rootSession(), "SELECT VALUE id FROM note")).toEqual([{ ok: ["note:rep2"] }]);
  });

  it("a cast and a custom function's result are held to the limit", async () => {
    const { ds } = await setup(2);
    const big = "array::repeat(array::repeat(1, 1000), 1000)";
    await run(ds, rootSession(), `DEFINE FUNCTION fn::twice($x: any) { RETURN [$x, $x] } PERMISSIONS FULL`);
    const out = await run(ds, rootSession(), `RETURN array::len(fn::twice(${big})); RETURN array::len(<set> [${big}, ${big}]); RETURN fn::twice(1)`);
    expect(out).toEqual([{ err: TOO_LARGE }, { err: TOO_LARGE }, { ok: [1, 1] }]);
  });
});
