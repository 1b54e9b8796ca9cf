import { describe, expect, it } from "vitest";
import type { IdiomPart } from "../../src/ast/nodes.js";
import { expr } from "./helpers.js";

const parts = (t: string): readonly IdiomPart[] => {
  const e = expr(t);
  if (e.kind !== "Idiom") throw new Error(`not an idiom: ${e.kind}`);
  return e.parts;
};

describe("idioms", () => {
  it("fields, keyword-named fields, quoted fields", () => {
    expect(parts("a.b.c")).toEqual([{ kind: "Field", name: "a" }, { kind: "Field", name: "b" }, { kind: "Field", name: "c" }]);
    expect(parts("value.type.user")).toEqual([{ kind: "Field", name: "value" }, { kind: "Field", name: "type" }, { kind: "Field", name: "user" }]);
    expect(parts("a.⟨odd name⟩.`x`")).toEqual([{ kind: "Field", name: "a" }, { kind: "Field", name: "odd name" }, { kind: "Field", name: "x" }]);
  });
  it("index, all, last, where, flatten, method", () => {
    expect(parts("a[0][*][$]")).toEqual([{ kind: "Field", name: "a" }, { kind: "Index", index: { kind: "Literal", value: 0n } }, { kind: "All" }, { kind: "Last" }]);
    expect(parts("a.*")).toEqual([{ kind: "Field", name: "a" }, { kind: "All" }]);
    expect(parts("a[WHERE x > 1]")[1]).toMatchObject({ kind: "Where", cond: { kind: "Binary", op: ">" } });
    expect(parts("a[? x]")[1]).toMatchObject({ kind: "Where", cond: { kind: "Idiom" } });
    expect(parts("a[$i]")[1]).toEqual({ kind: "Index", index: { kind: "Param", name: "i" } });
    expect(parts("a['k']")[1]).toEqual({ kind: "Index", index: { kind: "Literal", value: "k" } });
    expect(parts("a...")[1]).toEqual({ kind: "Flatten" });
    expect(parts("$x?.a")).toEqual([{ kind: "Start", value: { kind: "Param", name: "x" } }, { kind: "Optional" }, { kind: "Field", name: "a" }]);
    expect(parts("a.len()")[1]).toEqual({ kind: "Method", name: "len", args: [] });
    expect(parts("$s.slice(1, 2)")[1]).toMatchObject({ kind: "Method", name: "slice", args: [{ kind: "Literal" }, { kind: "Literal" }] });
  });
  it("start values: params, record ids, subqueries, calls", () => {
    expect(parts("$auth.id")).toEqual([{ kind: "Start", value: { kind: "Param", name: "auth" } }, { kind: "Field", name: "id" }]);
    expect(parts("user:1.name")[0]).toMatchObject({ kind: "Start", value: { kind: "RecordId", table: "user" } });
    expect(parts("(SELECT * FROM user)[0].id")[0]).toMatchObject({ kind: "Start", value: { kind: "Subquery" } });
    expect(parts("type::thing('a', 1).name")[0]).toMatchObject({ kind: "Start", value: { kind: "Call", name: "type::thing" } });
  });
  it("graph traversal", () => {
    expect(parts("->likes->person")).toEqual([
      { kind: "Graph", dir: "->", what: ["likes"], cond: undefined, alias: undefined },
      { kind: "Graph", dir: "->", what: ["person"], cond: undefined, alias: undefined },
    ]);
    expect(parts("person:1<-likes")[1]).toEqual({ kind: "Graph", dir: "<-", what: ["likes"], cond: undefined, alias: undefined });
    expect(parts("<->knows")[0]).toMatchObject({ kind: "Graph", dir: "<->", what: ["knows"] });
    expect(parts("->?")[0]).toMatchObject({ kind: "Graph", what: [] });
    const g = parts("->(likes, follows WHERE since > 1 AS l).name");
    expect(g[0]).toMatchObject({ kind: "Graph", what: ["likes", "follows"], cond: { kind: "Binary" }, alias: { kind: "Idiom", parts: [{ kind: "Field", name: "l" }] } });
    expect(g[1]).toEqual({ kind: "Field", name: "name" });
  });
});
