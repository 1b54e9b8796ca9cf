// Record arbitraries: every generated record of a table passes its TYPEs and ASSERTs on the engine, by a recognised
// pattern or (tableRecords) by the engine's own check of sampled values; nested and array-element fields shape it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import { rootSession } from "../../src/testing/invariant.js";
import { fieldValues, recordOf, tableRecords } from "../../src/testing/records.js";
import { readSchema, type TableShape } from "../../src/testing/schema.js";
import { surqlValue, valueOfType } from "../../src/testing/values.js";
import { Datetime, RecordId, type ValueObject } from "../../src/value/types.js";
import { parseType } from "../../grammar/index.js";

const POST = `
DEFINE TABLE post SCHEMAFULL;
DEFINE FIELD title ON post TYPE string ASSERT string::len($value) > 3 AND string::len($value) <= 30;
DEFINE FIELD email ON post TYPE string ASSERT string::is::email($value);
DEFINE FIELD code ON post TYPE string ASSERT string::is::alphanum($value);
DEFINE FIELD n ON post TYPE int ASSERT $value >= 0 AND $value < 10;
DEFINE FIELD score ON post TYPE float ASSERT $value > 1.5;
DEFINE FIELD status ON post TYPE string ASSERT $value INSIDE ['draft', 'live'];
DEFINE FIELD tags ON post TYPE array<string>;
DEFINE FIELD info ON post TYPE option<object>;
DEFINE FIELD info.secret ON post TYPE string;
DEFINE FIELD emails ON post TYPE array;
DEFINE FIELD emails[*].addr ON post TYPE string ASSERT $value != '';
DEFINE FIELD at ON post TYPE datetime;
DEFINE FIELD author ON post TYPE record<user>;
DEFINE FIELD k ON post TYPE number;
DEFINE FIELD b ON post TYPE bool;
DEFINE FIELD o ON post TYPE option<string>;
DEFINE FIELD slug ON post TYPE string ASSERT $value CONTAINS 'q';
DEFINE FIELD computed ON post VALUE 1;
`;
const post = (): TableShape => readSchema(POST).tables[0]!;

async function creates(compat: 1 | 2, records: readonly ValueObject[]): Promise<string[]> {
  const db = await SurqlAuth.open({ compat });
  await db.importText(`USE NS t DB t;\n${POST}`);
  const errors: string[] = [];
  for (const c of records) {
    const [r] = await db.engine.execute("CREATE post CONTENT $c", rootSession("t", "t"), { c });
    if (r?.status !== "OK") errors.push(String(r?.result));
  }
  return errors;
}

describe("record arbitraries", () => {
  it("a recognised ASSERT is met without the engine; the others are left to it (exact: false)", () => {
    const exact = Object.fromEntries(post().fields.map((f) => [f.path, fieldValues(f).exact]));
    expect(exact).toMatchObject({ title: true, email: true, code: true, n: true, score: true, status: true, "emails[*].addr": true, slug: false });
  });

  it("records of tableRecords pass every TYPE and ASSERT on the engine, in both compats", async () => {
    for (const compat of [1, 2] as const) {
      const records = fc.sample(await tableRecords(post(), { compat, seed: 3 }), { numRuns: 40, seed: 7 });
      expect(await creates(compat, records)).toEqual([]);
    }
    // and they have the shapes the definitions give
    for (const r of fc.sample(await tableRecords(post(), { seed: 3 }), { numRuns: 40, seed: 7 })) {
      expect(r["at"]).toBeInstanceOf(Datetime);
      expect(r["author"]).toBeInstanceOf(RecordId);
      expect(typeof r["n"]).toBe("bigint");
      expect(Array.isArray(r["emails"]) && (r["emails"] as ValueObject[]).every((e) => typeof e["addr"] === "string")).toBe(true);
      expect(r["info"] === undefined || typeof (r["info"] as ValueObject)["secret"] === "string").toBe(true);
      expect(r).not.toHaveProperty("computed");
    }
  }, 20_000);

  it("without the engine's filter, an unrecognised ASSERT is what fails", async () => {
    const records = fc.sample(recordOf(post()), { numRuns: 40, seed: 7 });
    const errors = await creates(2, records);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.includes("$value CONTAINS 'q'"))).toBe(true);
  });

  it("a given string goes in every string field whose ASSERT allows it (an email around it)", () => {
    const [r] = fc.sample(recordOf(post(), { stringFor: (p) => `SECRET_${p.replace(/[^a-z]/g, "")}_abc123` }), { numRuns: 1, seed: 1 });
    expect(r).toMatchObject({ title: "SECRET_title_abc123", email: "SECRET_email_abc123@example.com" });
    expect(r!["code"]).toMatch(/^[A-Za-z0-9]+$/);
  });

  it("values of a type print and parse back as that type on the engine", async () => {
    const db = await SurqlAuth.open();
    for (const t of ["int", "float", "bool", "string", "datetime", "duration", "uuid", "decimal", "record<user>", "option<int>", "array<string>", "object", "number", "'a' | 'b'", "int | string"]) {
      for (const v of fc.sample(valueOfType(parseType(t)), { numRuns: 10, seed: 2 })) {
        const [r] = await db.engine.execute(`RETURN <${t}> $v`, rootSession("t", "t"), { v });
        expect({ t, status: r?.status }).toEqual({ t, status: "OK" });
      }
    }
    expect(fc.sample(surqlValue(), { numRuns: 50, seed: 1 }).length).toBe(50);
  });
});
