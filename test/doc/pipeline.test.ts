// doc/: the per-record pipeline on hand-built definitions with a small stand-in evaluator.

import { describe, expect, it } from "vitest";
import type { DefineFieldStatement, Expr, Permission, Permissions } from "../../src/ast/nodes.js";
import type { DocEnv } from "../../src/doc/env.js";
import { cleanupTableFields, processTableFields } from "../../src/doc/fields.js";
import { writeDocument } from "../../src/doc/pipeline.js";
import { selectDocument } from "../../src/doc/select.js";
import type { DocViews } from "../../src/doc/write.js";
import { Catalog, newTableEntry } from "../../src/store/catalog.js";
import type { TableEntry } from "../../src/store/catalog.js";
import { KvIndexStore } from "../../src/store/indexes.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import { KvRecordStore } from "../../src/store/records.js";
import { Transaction } from "../../src/store/transaction.js";
import { valueEquals } from "../../src/value/index.js";
import { RecordId, isValueObject } from "../../src/value/types.js";
import type { Value } from "../../src/value/types.js";

const lit = (value: Value): Expr => ({ kind: "Literal", value });
const param = (name: string): Expr => ({ kind: "Param", name });
const field = (name: string): Expr => ({ kind: "Idiom", parts: [{ kind: "Field", name }] });
const eq = (left: Expr, right: Expr): Expr => ({ kind: "Binary", op: "=", left, right });
const FULL: Permission = { kind: "Full" };
const NONE: Permission = { kind: "None" };
const perms = (p: Partial<Permissions>, dflt: Permission = NONE): Permissions => ({ select: dflt, create: dflt, update: dflt, delete: dflt, ...p });

/** Literals, params, top-level fields of the document, `=`, `>`. */
async function miniEval(e: Expr, doc: Value, vars: Readonly<Record<string, Value>>, auth: Value): Promise<Value> {
  switch (e.kind) {
    case "Literal":
      return e.value;
    case "Param":
      return e.name === "auth" ? auth : vars[e.name];
    case "Idiom":
      return isValueObject(doc) && e.parts[0]?.kind === "Field" ? doc[e.parts[0].name] : undefined;
    case "Binary": {
      const l = await miniEval(e.left, doc, vars, auth);
      const r = await miniEval(e.right, doc, vars, auth);
      if (e.op === "=") return valueEquals(l, r);
      if (e.op === ">") return (l as bigint) > (r as bigint);
      throw new Error(e.op);
    }
    default:
      throw new Error(e.kind);
  }
}

/** `outer`: variables of the enclosing (client's) scope, which the pipeline's own bindings must shadow. */
async function env(opts: { perms: boolean; auth?: Value; tables?: TableEntry[]; compat?: 1 | 2; outer?: Record<string, Value> }): Promise<DocEnv> {
  const catalog = new Catalog();
  const tables = new Map((opts.tables ?? []).map((t) => [t.def.name, t]));
  const built: DocEnv = {
    catalog,
    records: new KvRecordStore(),
    indexes: new KvIndexStore(),
    txn: new Transaction(await new MemoryStore().begin("write")),
    compat: opts.compat ?? 2,
    ns: "n",
    db: "d",
    permissionsApply: () => opts.perms,
    importing: false,
    evaluate: (_def, e, doc, vars) => miniEval(e, doc, { ...opts.outer, ...vars }, opts.auth),
    ensureTable: (tb) => {
      const t = tables.get(tb);
      if (!t) throw new Error("no table");
      return t;
    },
    identity: () => ({ auth: String(opts.auth), access: "NONE", token: "NONE", session: "{}" }),
    printExpr: (e) => (e.kind === "Binary" ? "cond" : e.kind),
    printValue: (v) => (typeof v === "string" ? `'${v}'` : String(v)),
    clientView: () => built,
  };
  return built;
}

function table(name: string, p: Permissions, schemafull = false): TableEntry {
  return newTableEntry("ns", "db", {
    kind: "DefineTable",
    name,
    ifNotExists: false,
    overwrite: false,
    comment: undefined,
    drop: false,
    schemafull,
    tableType: { kind: "Any" },
    view: undefined,
    permissions: p,
    permissionsWritten: true,
    changefeed: undefined,
  });
}

function defineField(tb: string, name: string, extra: Partial<DefineFieldStatement> = {}): DefineFieldStatement {
  return {
    kind: "DefineField",
    name: { kind: "Idiom", parts: [{ kind: "Field", name }] },
    table: tb,
    ifNotExists: false,
    overwrite: false,
    comment: undefined,
    flexible: false,
    type: undefined,
    readonly: false,
    value: undefined,
    assert: undefined,
    default: undefined,
    defaultAlways: false,
    permissions: perms({}, FULL),
    permissionsWritten: false,
    ...extra,
  };
}

const rid = (k: bigint) => new RecordId("t", k);

describe("selectDocument", () => {
  it("skips records the select permission denies and keeps the rest", async () => {
    const t = table("t", perms({ select: { kind: "Where", cond: eq(field("owner"), param("auth")) } }));
    const e = await env({ perms: true, auth: "me", tables: [t] });
    expect(await selectDocument(e, t, { id: rid(1n), owner: "me" })).toEqual({ id: rid(1n), owner: "me" });
    expect(await selectDocument(e, t, { id: rid(2n), owner: "you" })).toBeUndefined();
  });

  it("lets bypassing actors see everything, and hides records of unknown tables from others", async () => {
    const t = table("t", perms({}));
    expect(await selectDocument(await env({ perms: false }), t, { id: rid(1n) })).toEqual({ id: rid(1n) });
    expect(await selectDocument(await env({ perms: true }), undefined, { id: rid(1n) })).toBeUndefined();
  });

  it("strips fields whose select permission fails", async () => {
    const t = table("t", perms({ select: FULL }));
    t.fields.set("secret", defineField("t", "secret", { permissions: perms({ select: NONE }, FULL) }));
    expect(await selectDocument(await env({ perms: true }), t, { id: rid(1n), secret: "s", a: 1n })).toEqual({ id: rid(1n), a: 1n });
  });
});

/** A data clause that turns the record into `doc`. */
const becomes = (doc: Record<string, Value>) => async () => doc;

describe("writeDocument", () => {
  it("creates when permitted, skips silently when the create permission denies", async () => {
    const t = table("t", perms({ create: { kind: "Where", cond: eq(field("owner"), param("auth")) } }));
    const e = await env({ perms: true, auth: "me", tables: [t] });
    const ok = await writeDocument(e, { action: "create", rid: rid(1n), before: undefined, data: becomes({ id: rid(1n), owner: "me" }) });
    expect(ok?.after).toEqual({ id: rid(1n), owner: "me" });
    const denied = await writeDocument(e, { action: "create", rid: rid(2n), before: undefined, data: becomes({ id: rid(2n), owner: "you" }) });
    expect(denied).toBeUndefined();
    expect(await e.records.get(e.txn, { ns: "n", db: "d", tb: "t" }, rid(2n))).toBeUndefined();
  });

  it("checks update permission on the record before and after the change", async () => {
    const t = table("t", perms({ update: { kind: "Where", cond: eq(field("owner"), param("auth")) } }));
    const e = await env({ perms: true, auth: "me", tables: [t] });
    const before = { id: rid(1n), owner: "me" };
    const giveAway = await writeDocument(e, { action: "update", rid: rid(1n), before, data: becomes({ id: rid(1n), owner: "you" }) });
    expect(giveAway).toBeUndefined();
    const other = await writeDocument(e, { action: "update", rid: rid(1n), before: { id: rid(1n), owner: "you" }, data: becomes({ id: rid(1n), owner: "me" }) });
    expect(other).toBeUndefined();
  });

  it("keeps the old value of a field whose update permission denies the change", async () => {
    const t = table("t", perms({}, FULL));
    t.fields.set("role", defineField("t", "role", { permissions: perms({ update: NONE }, FULL) }));
    const e = await env({ perms: true, tables: [t] });
    const res = await writeDocument(e, { action: "update", rid: rid(1n), before: { id: rid(1n), role: "user" }, data: becomes({ id: rid(1n), role: "admin" }) });
    expect(res?.after).toEqual({ id: rid(1n), role: "user" });
  });
});

describe("writeDocument: the order of the client's clauses and the permissions", () => {
  const owned = { kind: "Where", cond: eq(field("owner"), param("auth")) } as const;
  const stored = { id: rid(1n), owner: "you", secret: "s" };

  for (const compat of [1, 2] as const) {
    it(`never runs the data clause on a record whose update permission denies (compat ${compat})`, async () => {
      const t = table("t", perms({ select: FULL, update: owned }));
      const e = await env({ perms: true, auth: "me", tables: [t], compat });
      let ran = false;
      const data = async () => {
        ran = true;
        return { id: rid(1n), owner: "me" };
      };
      expect(await writeDocument(e, { action: "update", rid: rid(1n), before: stored, data })).toBeUndefined();
      expect(ran).toBe(false);
    });

    it(`hands the data clause the record without fields the client may not select, and keeps them stored (compat ${compat})`, async () => {
      const t = table("t", perms({}, FULL));
      t.fields.set("secret", defineField("t", "secret", { permissions: perms({ select: NONE }, FULL) }));
      const e = await env({ perms: true, tables: [t], compat });
      const seen: Value[] = [];
      const data = async (v: DocViews) => {
        seen.push(v.seen);
        return { ...v.full, title: "x" };
      };
      const res = await writeDocument(e, { action: "update", rid: rid(1n), before: stored, data });
      expect(seen).toEqual([{ id: rid(1n), owner: "you" }]);
      expect(res?.after).toEqual({ ...stored, title: "x" });
    });

    it(`sees $input as NONE in table permissions, whatever the client's (compat ${compat})`, async () => {
      const t = table("t", perms({ create: { kind: "Where", cond: eq(param("input"), lit(undefined)) } }));
      const e = await env({ perms: true, tables: [t], compat, outer: { input: { ok: true } } });
      const res = await writeDocument(e, { action: "create", rid: rid(1n), before: undefined, data: becomes({ id: rid(1n) }) });
      expect(res?.after).toEqual({ id: rid(1n) });
    });
  }

  it("runs WHERE after the 2.x quick check, and before the table permission in both versions", async () => {
    const calls: number[] = [];
    const where = (n: number) => async () => {
      calls.push(n);
      return true;
    };
    const closed = table("t", perms({ select: FULL, update: NONE }));
    await writeDocument(await env({ perms: true, tables: [closed], compat: 2 }), { action: "update", rid: rid(1n), before: stored, where: where(2) });
    await writeDocument(await env({ perms: true, tables: [closed], compat: 1 }), { action: "update", rid: rid(1n), before: stored, where: where(1) });
    const gated = table("t", perms({ select: FULL, update: { kind: "Where", cond: lit(false) } }));
    await writeDocument(await env({ perms: true, tables: [gated], compat: 2 }), { action: "update", rid: rid(1n), before: stored, where: where(3) });
    expect(calls).toEqual([1, 3]);
  });

  it("skips a 2.x UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record when create is NONE", async () => {
    const t = table("t", perms({ select: FULL, update: FULL, create: NONE }));
    const req = { action: "update", rid: rid(1n), before: stored, createFirst: { data: becomes({ id: rid(1n) }), updateAfterFieldError: true } } as const;
    expect(await writeDocument(await env({ perms: true, tables: [t], compat: 2 }), req)).toBeUndefined();
    expect((await writeDocument(await env({ perms: true, tables: [t], compat: 1 }), req))?.after).toEqual(stored);
  });

  it("undoes the 2.x create it tries first, and skips the update when that create is denied", async () => {
    const t = table("t", perms({ select: FULL, update: FULL, create: { kind: "Where", cond: eq(field("owner"), lit("me")) } }));
    const e = await env({ perms: true, tables: [t], compat: 2 });
    const tries: string[] = [];
    // the data of the tried create writes a side record, as a nested CREATE would
    const tried = (owner: string) => async () => {
      tries.push(owner);
      await e.records.put(e.txn, { ns: "n", db: "d", tb: "t" }, rid(9n), { id: rid(9n) });
      return { id: rid(1n), owner };
    };
    const denied = await writeDocument(e, { action: "update", rid: rid(1n), before: stored, data: becomes({ ...stored, owner: "x" }), createFirst: { data: tried("you"), updateAfterFieldError: true } });
    expect(denied).toBeUndefined();
    const updated = await writeDocument(e, { action: "update", rid: rid(1n), before: stored, data: becomes({ ...stored, owner: "x" }), createFirst: { data: tried("me"), updateAfterFieldError: true } });
    expect(updated?.after).toEqual({ ...stored, owner: "x" });
    expect(tries).toEqual(["you", "me"]);
    expect(await e.records.get(e.txn, { ns: "n", db: "d", tb: "t" }, rid(9n))).toBeUndefined();
  });

  it("lets a field error in the tried create through for INSERT, and on to the update for UPSERT", async () => {
    const t = table("t", perms({}, FULL));
    t.fields.set("k", defineField("t", "k", { type: { kind: "Basic", name: "int" } }));
    const e = await env({ perms: true, tables: [t], compat: 2 });
    const before = { id: rid(1n), k: 1n };
    const req = (updateAfterFieldError: boolean) => ({ action: "update", rid: rid(1n), before, data: becomes({ ...before, k: 2n }), createFirst: { data: becomes({ id: rid(1n) }), updateAfterFieldError } }) as const;
    await expect(writeDocument(e, req(false))).rejects.toThrow("field `k`");
    expect((await writeDocument(e, req(true)))?.after).toEqual({ id: rid(1n), k: 2n });
  });

  it("reports an existing record only after the create permission passed (no existence oracle)", async () => {
    const conflict = () => new Error("exists");
    const closed = table("t", perms({ select: FULL, create: NONE }));
    const req = { action: "create", rid: rid(1n), before: undefined, conflict } as const;
    expect(await writeDocument(await env({ perms: true, tables: [closed] }), req)).toBeUndefined();
    const open = table("t", perms({}, FULL));
    await expect(writeDocument(await env({ perms: true, tables: [open] }), req)).rejects.toThrow("exists");
  });
});

describe("processTableFields", () => {
  const op = (after: Record<string, Value>, before?: Record<string, Value>) => ({ action: before ? ("update" as const) : ("create" as const), rid: rid(1n), before, after });

  it("applies DEFAULT on new records only and VALUE on every write", async () => {
    const t = table("t", perms({}, FULL));
    t.fields.set("d", defineField("t", "d", { default: lit("dflt") }));
    t.fields.set("v", defineField("t", "v", { value: lit(7n) }));
    const e = await env({ perms: false, tables: [t] });
    expect(await processTableFields(e, t, op({ id: rid(1n) }), { id: rid(1n) })).toEqual({ id: rid(1n), d: "dflt", v: 7n });
    expect(await processTableFields(e, t, op({ id: rid(1n) }, { id: rid(1n) }), { id: rid(1n) })).toEqual({ id: rid(1n), v: 7n });
  });

  it("fails ASSERT with SurrealDB's text and READONLY changes", async () => {
    const t = table("t", perms({}, FULL));
    t.fields.set("n", defineField("t", "n", { assert: { kind: "Binary", op: ">", left: param("value"), right: lit(0n) } }));
    const e = await env({ perms: false, tables: [t] });
    await expect(processTableFields(e, t, op({ id: rid(1n), n: 0n }), { id: rid(1n), n: 0n })).rejects.toThrow(
      "Found 0 for field `n`, with record `t:1`, but field must conform to: cond",
    );
    const r = table("t", perms({}, FULL));
    r.fields.set("k", defineField("t", "k", { readonly: true }));
    await expect(processTableFields(e, r, op({ id: rid(1n), k: 2n }, { id: rid(1n), k: 1n }), { id: rid(1n), k: 2n })).rejects.toThrow(
      "Found changed value for field `k`, with record `t:1`, but field is readonly",
    );
  });

  it("drops undefined fields from SCHEMAFULL tables, keeping id and nested defined fields", () => {
    const t = table("t", perms({}, FULL), true);
    t.fields.set("a", defineField("t", "a"));
    t.fields.set("o", defineField("t", "o"));
    t.fields.set("o.x", defineField("t", "o.x"));
    expect(cleanupTableFields(t, { id: rid(1n), a: 1n, b: 2n, o: { x: 1n, y: 2n } })).toEqual({ id: rid(1n), a: 1n, o: { x: 1n } });
  });
});
