// doc/permissions: what a table permission clause is given to evaluate.

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { DefineTableStatement, Expr } from "../../src/ast/nodes.js";
import type { DocEnv } from "../../src/doc/env.js";
import { checkPermissionsTable, readsOnlyFields } from "../../src/doc/permissions.js";
import { newTableEntry } from "../../src/store/catalog.js";
import type { Value } from "../../src/value/types.js";
import { defaultTableDefinition } from "../../src/exec/statements/define.js";

describe("checkPermissionsTable", () => {
  it("binds $input as NONE, whatever input is in scope (SurrealDB 1.5.4 / 2.6.0: `FOR create WHERE $input.ok = true` denies CONTENT { ok: true })", async () => {
    const seen: Readonly<Record<string, Value>>[] = [];
    const env = {
      compat: 2,
      permissionsApply: () => true,
      evaluate: async (_def: unknown, _e: Expr, _doc: Value, vars: Readonly<Record<string, Value>>) => {
        seen.push(vars);
        return true;
      },
    } as unknown as DocEnv;
    const cond: Expr = { kind: "Literal", value: true };
    const table = newTableEntry("ns", "db", { ...defaultTableDefinition("t"), permissions: { select: { kind: "Where", cond }, create: { kind: "Where", cond }, update: { kind: "Where", cond }, delete: { kind: "Where", cond } } });
    expect(await checkPermissionsTable(env, table, "create", { ok: true }, { input: { ok: true }, after: { ok: true } })).toBe(true);
    expect(await checkPermissionsTable(env, table, "select", { ok: true })).toBe(true);
    expect(seen).toEqual([{ input: undefined, after: { ok: true } }, { input: undefined }]);
    expect(seen.every((v) => Object.hasOwn(v, "input"))).toBe(true);
  });
});

describe("readsOnlyFields", () => {
  const where = (text: string): Expr => {
    const def = parse(`DEFINE TABLE t PERMISSIONS FOR select WHERE ${text}`)[0] as DefineTableStatement;
    const p = def.permissions.select;
    if (p.kind !== "Where") throw new Error(text);
    return p.cond;
  };
  const near = new Set(["in"]);
  it.each([
    ["in = $auth.id", true, true],
    ["in.owner = $auth.id AND $session.ac = 'x'", true, true],
    ["$value = $auth.id", true, true],
    ["$value = $auth.id", false, false],
    ["count(SELECT id FROM ban WHERE who = $auth.id) = 0", true, false],
    ["public = true", true, false],
    ["id = $auth.id", true, false],
    ["$this.public", true, false],
    ["$parent.x = 1", true, false],
    ["type::field('public')", true, false],
    ["->likes", true, false],
    ["in = $auth.id OR out.public", true, false],
  ])("%s ($value allowed: %s) → %s", (text, value, expected) => {
    expect(readsOnlyFields(where(text), near, value)).toBe(expected);
  });
});
