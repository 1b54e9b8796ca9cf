import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareValues, sortValues, valueEquals } from "../../src/value/compare.js";
import { formatDuration, parseDuration, DURATION_MAX } from "../../src/value/duration.js";
import { formatDatetime, parseDatetime } from "../../src/value/datetime.js";
import { toJson, toJsonText } from "../../src/value/json.js";
import { toSql } from "../../src/value/display.js";
import { formatRecordId, parseRecordIdText } from "../../src/value/record.js";
import { Datetime, Decimal, Duration, RecordId, Table, Uuid, type Value } from "../../src/value/types.js";

const compats = fc.constantFrom<1 | 2>(1, 2);

const duration = fc.bigInt({ min: 0n, max: DURATION_MAX.nanos }).map((n) => new Duration(n));
// years 0001..9999
const datetime = fc.bigInt({ min: -62135596800n * 1_000_000_000n, max: 253402300799n * 1_000_000_000n + 999_999_999n }).map((n) => new Datetime(n));
const decimal = fc
  .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 6 }))
  .map(([u, s]) => {
    const neg = u < 0n;
    let digits = (neg ? -u : u).toString();
    if (s > 0) {
      digits = digits.padStart(s + 1, "0");
      digits = `${digits.slice(0, -s)}.${digits.slice(-s)}`;
    }
    return new Decimal(neg && u !== 0n ? `-${digits}` : digits);
  });
const simpleKey = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/),
);
const tableName = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/), fc.string({ minLength: 1, maxLength: 8 }));

const scalar: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.double(),
  decimal,
  fc.string({ maxLength: 6 }),
  duration,
  datetime,
  fc.uuid().map((u) => new Uuid(u)),
  fc.tuple(fc.stringMatching(/^[a-z]{1,4}$/), fc.oneof(fc.bigInt({ min: -5n, max: 5n }), fc.stringMatching(/^[a-z0-9]{1,3}$/))).map(([t, k]) => new RecordId(t, k)),
  fc.stringMatching(/^[a-z]{1,4}$/).map((t) => new Table(t)),
  fc.uint8Array({ maxLength: 4 }),
);
const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie("v"), { maxKeys: 3 }),
  ),
})).v;

describe("durations", () => {
  it("parse ∘ format is the identity", () => {
    fc.assert(fc.property(duration, (d) => {
      expect(parseDuration(formatDuration(d)).nanos).toBe(d.nanos);
    }));
  });
  it("formatting is normalised: re-formatting the parsed text is stable", () => {
    const text = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.constantFrom("y", "w", "d", "h", "m", "s", "ms", "us", "µs", "ns")), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.map(([n, u]) => `${n}${u}`).join(""));
    fc.assert(
      fc.property(text, (t) => {
        const once = formatDuration(parseDuration(t));
        expect(formatDuration(parseDuration(once))).toBe(once);
        // units appear largest first, each at most once, no zero components
        expect(once).toMatch(/^(0ns|(\d+y)?(\d+w)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?(\d+ms)?(\d+µs)?(\d+ns)?)$/);
        if (once !== "0ns") expect(once).not.toMatch(/(^|[a-zµ])0[a-zµ]/);
      }),
    );
  });
});

describe("datetimes", () => {
  it("parse ∘ format is the identity for years 1..9999", () => {
    fc.assert(fc.property(datetime, (d) => {
      expect(parseDatetime(formatDatetime(d)).nanos).toBe(d.nanos);
    }));
  });
});

describe("record ids", () => {
  it("parseRecordIdText ∘ formatRecordId round-trips simple keys in both versions", () => {
    fc.assert(
      fc.property(tableName, simpleKey, compats, (table, key, compat) => {
        const rid = new RecordId(table, key);
        const back = parseRecordIdText(formatRecordId(rid, { compat }));
        expect(back).toEqual(rid);
      }),
    );
  });
});

describe("compareValues", () => {
  it("is antisymmetric and reflexive", () => {
    fc.assert(
      fc.property(value, value, compats, (a, b, compat) => {
        expect(compareValues(a, a, { compat })).toBe(0);
        expect(compareValues(a, b, { compat })).toBe(-compareValues(b, a, { compat }) || 0);
      }),
    );
  });
  it("is transitive (2.x: exact across number types)", () => {
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        const [x, y, z] = sortValues([a, b, c]);
        expect(compareValues(x, y)).toBeLessThanOrEqual(0);
        expect(compareValues(y, z)).toBeLessThanOrEqual(0);
        expect(compareValues(x, z)).toBeLessThanOrEqual(0);
      }),
    );
  });
  it("is consistent with valueEquals", () => {
    fc.assert(fc.property(value, value, (a, b) => {
      expect(valueEquals(a, b)).toBe(compareValues(a, b) === 0);
    }));
  });
});

describe("toJson / toSql", () => {
  it("never throw, and toJson is JSON-serialisable", () => {
    fc.assert(
      fc.property(value, compats, (v, compat) => {
        expect(() => JSON.stringify(toJson(v, { compat }))).not.toThrow();
        expect(() => JSON.parse(toJsonText(v, { compat }))).not.toThrow();
        expect(typeof toSql(v, { compat })).toBe("string");
      }),
    );
  });
});
