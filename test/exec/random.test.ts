// exec/random.ts: SurrealQL randomness comes from the CSPRNG, never V8's predictable Math.random (attack finding F12).

import { afterEach, describe, expect, it, vi } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession } from "../../src/exec/session.js";
import { randomCode, randomFloat, randomIndex, shuffleInPlace } from "../../src/exec/random.js";

const root = () => newSession({ ns: "t", db: "t", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

afterEach(() => vi.restoreAllMocks());

describe("randomFloat", () => {
  it("gives floats in [0, 1) whose mean is about one half", () => {
    let sum = 0;
    for (let i = 0; i < 20_000; i++) {
      const f = randomFloat();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      sum += f;
    }
    expect(Math.abs(sum / 20_000 - 0.5)).toBeLessThan(0.05);
  });

  it("randomIndex stays in range and shuffleInPlace keeps every element", () => {
    for (let i = 0; i < 1000; i++) expect(randomIndex(7)).toBeLessThan(7);
    expect(randomIndex(1)).toBe(0);
    expect(shuffleInPlace([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("randomCode", () => {
  it("gives codes of the length asked, of all 62 alphanumerics about equally often (no modulo bias towards the first 8)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const code = randomCode();
      expect(code).toMatch(/^[A-Za-z0-9]{128}$/);
      for (const c of code) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(randomCode(8)).toHaveLength(8);
    expect(counts.size).toBe(62);
    // 51,200 characters: about 826 each; a plain byte % 62 would give each of A–H ≈ 1,000 (5 chances in 256, not 4)
    const first8 = [..."ABCDEFGH"].reduce((n, c) => n + counts.get(c)!, 0) / 8;
    const rest = [...counts].filter(([c]) => !"ABCDEFGH".includes(c)).reduce((n, [, k]) => n + k, 0) / 54;
    expect(first8 / rest).toBeLessThan(1.12);
    for (const k of counts.values()) expect(k).toBeGreaterThan(600);
  });
});

describe.each([1, 2] as const)("SurrealQL randomness never reads Math.random (compat %i)", (compat) => {
  it("rand(), rand::float(), array::shuffle, ORDER BY RAND() and generated ids", async () => {
    const ds = new Datastore({ compat });
    const spy = vi.spyOn(Math, "random");
    const shuffle = compat === 2 ? "array::shuffle([1, 2, 3])" : "1";
    const rs = await ds.execute(
      `RETURN [rand(), rand::float(), rand::float(1, 2), ${shuffle}]; CREATE t:1, t:2, t:3; SELECT * FROM t ORDER BY RAND(); CREATE t:ulid(); CREATE t`,
      root(),
    );
    for (const r of rs) expect(r.status, String(r.result)).toBe("OK");
    expect(spy).not.toHaveBeenCalled();
    const [r, f, g] = rs[0]!.result as number[];
    for (const x of [r!, f!]) expect(x >= 0 && x < 1).toBe(true);
    expect(g! >= 1 && g! <= 2).toBe(true);
    expect((rs[2]!.result as unknown[]).length).toBe(3);
  });
});
