// store/: a stored definition reads back exactly — every DEFINE of the behaviour files and examples, as the engine
// keeps it in each compat (hashed passwords, generated user codes and access keys), and arbitrary literal values.

import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import { Datastore } from "../../src/exec/datastore.js";
import { decodeDefinition, encodeDefinition, sameDefinition } from "../../src/store/catalog-codec.js";
import { WORDS } from "../../src/store/catalog-words.js";
import type { Tag } from "../../src/store/catalog-keys.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, RecordIdRange, Regex, Table, Uuid, type Value } from "../../src/value/types.js";
import { parseLanguageFile } from "../language/format.js";
import { rootSession } from "../exec/helpers.js";
import { catalogEntries, catalogPaths, withoutPositions } from "./catalog-helpers.js";

/** The DEFINE statements (as text) of every behaviour file and example schema. */
function defineTexts(): string[] {
  const dir = "test/language/cases";
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith(".surql"))
    .flatMap((f) => parseLanguageFile(readFileSync(`${dir}/${f}`, "utf8")).steps.map((s) => s.query));
  texts.push(readFileSync("examples/schema-v1.surql", "utf8"), readFileSync("examples/schema-v2.surql", "utf8"));
  // what the behaviour files do not define
  texts.push("DEFINE ANALYZER simple TOKENIZERS blank, class FILTERS lowercase, snowball(english) COMMENT 'for search'");
  return texts.filter((t) => {
    try {
      return parse(t).some((s) => s.kind.startsWith("Define"));
    } catch {
      return false;
    }
  });
}

describe("catalog codec", () => {
  for (const compat of [1, 2] as const) {
    it(`round-trips every definition the behaviour files and examples make (compat ${compat})`, async () => {
      const kinds = new Set<Tag>();
      let n = 0;
      for (const text of defineTexts()) {
        const ds = new Datastore({ compat });
        const defines = parse(text).filter((s) => s.kind.startsWith("Define"));
        await ds.execute(defines, rootSession());
        for (const [tag, stored] of catalogEntries(ds.catalog)) {
          expect(decodeDefinition(encodeDefinition(stored))).toStrictEqual(withoutPositions(stored));
          kinds.add(tag);
          n++;
        }
      }
      expect([...kinds].sort()).toEqual(["ac", "az", "db", "ev", "fd", "fn", "ix", "ns", "pa", "tb", "us"]);
      expect(n).toBeGreaterThan(300);
    });
  }

  it("keeps the generated secrets: a user's code and passhash, an access method's signing key", async () => {
    const ds = new Datastore({ compat: 2 });
    await ds.execute("DEFINE USER u ON DATABASE PASSWORD 'p' ROLES EDITOR DURATION FOR SESSION 2h; DEFINE ACCESS a ON DATABASE TYPE RECORD DURATION FOR TOKEN 5m", rootSession());
    const user = ds.catalog.getUser("DATABASE", "test", "test", "u")!;
    const access = ds.catalog.getAccess("DATABASE", "test", "test", "a")!;
    const u2 = decodeDefinition(encodeDefinition(user)) as typeof user;
    const a2 = decodeDefinition(encodeDefinition(access)) as typeof access;
    expect(u2.code).toBe(user.code);
    expect(u2.def.passhash).toMatch(/^\$argon2/);
    expect(u2.def.duration.session).toEqual(new Duration(7_200_000_000_000n));
    expect(a2.jwt).toStrictEqual(access.jwt);
    expect(a2.jwt.verify.kind === "Key" && a2.jwt.verify.key.length).toBe(128);
  });

  const key = fc.oneof(fc.string(), fc.constantFrom("$", "$$", "$v", "v", "__proto__"));
  const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom<Value>(undefined, null, true, false, NaN, -0, Infinity, -Infinity),
      fc.bigInt(),
      fc.double(),
      fc.string(),
      fc.bigInt({ min: 0n, max: 2n ** 64n }).map((n) => new Duration(n)),
      fc.bigInt().map((n) => new Datetime(n)),
      fc.stringMatching(/^-?\d{1,20}(\.\d{1,10})?$/).map((t) => new Decimal(t)),
      fc.uuid().map((u) => new Uuid(u)),
      fc.string().map((t) => new Table(t)),
      fc.string().map((t) => new Regex(t)),
      fc.tuple(fc.string(), fc.oneof(fc.bigInt(), fc.string())).map(([t, id]) => new RecordId(t, id)),
      fc.tuple(fc.option(fc.bigInt(), { nil: undefined }), fc.boolean()).map(([b, inc]) => new RecordId("t", new RecordIdRange(b === undefined ? undefined : { value: b, inclusive: inc }, undefined))),
      fc.uint8Array().map((b) => b as Value),
      fc.tuple(fc.double(), fc.double()).map((c) => new Geometry("Point", c)),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(key, tie("v"), { maxKeys: 4 }).map((o) => ({ ...o }) as Value),
    ),
  })).v;

  it("round-trips any literal value a definition can hold (property)", () => {
    fc.assert(
      fc.property(value, (v) => {
        const def = { kind: "DefineParam", name: "p", value: { kind: "Literal", value: v }, comment: undefined };
        expect(decodeDefinition(encodeDefinition(def))).toStrictEqual(def);
        expect(sameDefinition(def, decodeDefinition(encodeDefinition(def)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("drops source positions: where a definition's text was is no part of it", () => {
    const [a, b] = [parse("DEFINE TABLE t PERMISSIONS FOR select WHERE a = 1")[0], parse("\n\n  DEFINE TABLE t PERMISSIONS FOR select WHERE a = 1")[0]];
    expect(encodeDefinition(a)).toEqual(encodeDefinition(b));
    expect(sameDefinition(a, b)).toBe(true);
    expect(sameDefinition(a, parse("DEFINE TABLE t PERMISSIONS FOR select WHERE a = 2")[0])).toBe(false);
  });

  it("keeps the keys of a literal object value, `pos` too: only an AST node's position is dropped", () => {
    const value = { kind: "k", pos: 3, nested: [{ kind: "Literal", pos: { line: 1 } }] };
    const def = { kind: "DefineParam", name: "p", value: { kind: "Literal", value, pos: { line: 1, column: 1, offset: 0 } }, comment: undefined };
    expect(decodeDefinition(encodeDefinition(def))).toStrictEqual({ ...def, value: { kind: "Literal", value } });
  });

  for (const format of [1, 2]) {
    it(`still reads definitions stored in format ${format}, with their secrets`, async () => {
      // fixtures/catalog-format<n>.json: what the format-n encoder stored for catalog-stored.surql
      const stored = JSON.parse(readFileSync(`test/store/fixtures/catalog-format${format}.json`, "utf8")) as Record<string, string>;
      const ds = new Datastore({ compat: 2 });
      const answers = await ds.execute(readFileSync("test/store/fixtures/catalog-stored.surql", "utf8"), rootSession("app", "app"));
      expect(answers.filter((a) => a.status !== "OK")).toEqual([]);
      const now = new Map(catalogPaths(ds.catalog));
      expect([...now.keys()].sort()).toEqual(Object.keys(stored).sort());
      for (const [path, base64] of Object.entries(stored)) {
        const bytes = Uint8Array.from(Buffer.from(base64, "base64"));
        expect(bytes[0]).toBe(format);
        const old = decodeDefinition(bytes) as { code?: string };
        // a user's code is generated anew on every DEFINE
        const expected = path.includes("/us/") ? { ...(now.get(path) as object), code: old.code } : now.get(path);
        expect(old, path).toStrictEqual(withoutPositions(expected));
        // written again in today's format, it reads back the same
        expect(decodeDefinition(encodeDefinition(old))).toStrictEqual(old);
      }
      expect((decodeDefinition(Buffer.from(stored["ns/app/db/app/ac/acc"]!, "base64")) as { jwt: unknown }).jwt).toEqual({
        verify: { kind: "Key", alg: "HS512", key: "secret" },
        issuer: { alg: "HS512", key: "secret" },
      });
    });
  }

  it("its word list has no word twice, and every AST key and node kind of a stored schema is a word", async () => {
    expect(new Set(WORDS).size).toBe(WORDS.length);
    const ds = new Datastore({ compat: 2 });
    await ds.execute(readFileSync("test/store/fixtures/catalog-stored.surql", "utf8"), rootSession("app", "app"));
    const missing = new Set<string>();
    const visit = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(visit);
      else if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
        const node = typeof (x as { kind?: unknown }).kind === "string";
        for (const [k, v] of Object.entries(x)) {
          if (!WORDS.includes(k)) missing.add(k);
          if (node && k === "kind" && !WORDS.includes(v as string)) missing.add(v as string);
          if (!(node && (x as { kind: string }).kind === "Literal" && k === "value")) visit(v);
        }
      }
    };
    for (const [, stored] of catalogPaths(ds.catalog)) visit(withoutPositions(stored));
    expect([...missing]).toEqual([]);
  });

  it("refuses what it cannot store instead of storing it wrong", () => {
    expect(() => encodeDefinition({ v: new Map() })).toThrow(/cannot store a Map/);
    expect(() => decodeDefinition(Uint8Array.from([9, 0x7b, 0x7d]))).toThrow(/unknown format/);
    expect(() => decodeDefinition(Uint8Array.from([3, 0x3f, 0xff, 0x7f]))).toThrow(/unknown word/);
  });
});
