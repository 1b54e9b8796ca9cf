// Casting 1 MiB strings stays linear: long digit runs before a bad character, overflowing numbers, long fractions.
// No timings: a super-linear path (a backtracking regex, BigInt of a million digits) trips vitest's timeout instead.
import { describe, expect, it } from "vitest";
import { MiB, basicType, castFamilies, fill } from "../../bench/adversarial.js";
import { CastError } from "../../src/errors/index.js";
import { cast } from "../../src/value/cast.js";
import { formatDatetime } from "../../src/value/datetime.js";
import { formatDuration } from "../../src/value/duration.js";
import { Datetime, Decimal, Duration, RecordId, type Value } from "../../src/value/types.js";

function castFails(text: string, type: Parameters<typeof basicType>[0], compat: 1 | 2 = 2): string {
  try {
    cast(text, basicType(type), { compat });
  } catch (e) {
    expect(e).toBeInstanceOf(CastError);
    return (e as Error).message;
  }
  throw new Error(`expected a CastError for <${type}> of ${text.length} characters`);
}

describe("1 MiB strings that do not convert are a CastError", () => {
  for (const f of castFamilies) {
    for (const compat of [1, 2] as const) {
      if (f.type === "datetime" && compat === 1) continue; // 1.x accepts and truncates a long fraction (below)
      it(`${f.name} (compat ${compat})`, () => {
        const m = castFails(f.text(MiB), f.type, compat);
        expect(m.startsWith(`Expected a ${f.type} but cannot convert '${f.text(MiB).slice(0, 20)}`), m.slice(0, 200)).toBe(true);
        expect(m.endsWith(`' into a ${f.type}`)).toBe(true);
      });
    }
  }
});

describe("1 MiB strings that do convert (values from SurrealDB 2.6 / 1.5.4 on 400-digit inputs)", () => {
  const ok = (text: string, type: Parameters<typeof basicType>[0], compat: 1 | 2 = 2): Value => cast(text, basicType(type), { compat });
  it("a float or number beyond f64 is infinite", () => {
    expect(ok(fill("1", MiB), "float")).toBe(Infinity);
    expect(ok(fill("1", MiB), "number")).toBe(Infinity);
    expect(ok(fill("1", MiB, "1."), "float")).toBe(1.1111111111111112);
  });
  it("leading zeros do not count against an int or a duration", () => {
    expect(ok(fill("0", MiB, "-", "7"), "int")).toBe(-7n);
    expect(formatDuration(ok(fill("0", MiB, "", "1s"), "duration") as Duration)).toBe("1s");
    expect(formatDuration(ok(fill("1s", MiB), "duration") as Duration)).toBe(formatDuration(new Duration(BigInt(MiB / 2) * 1_000_000_000n)));
  });
  it("a decimal keeps 28 fractional digits", () => {
    expect(ok(fill("1", MiB, "0."), "decimal")).toEqual(new Decimal("0.1111111111111111111111111111"));
    expect(ok(fill("0", MiB, "", "1.5"), "decimal")).toEqual(new Decimal("1.5"));
  });
  it("a record id with a long numeric key keeps it as a string", () => {
    const rid = cast(fill("1", MiB, "a:"), { kind: "Record", tables: [] });
    expect(rid).toBeInstanceOf(RecordId);
    expect((rid as RecordId).id).toBe(fill("1", MiB));
  });
  it("1.x truncates a long datetime fraction to nanoseconds", () => {
    const d = ok(fill("1", MiB, "2020-01-01T00:00:00.", "Z"), "datetime", 1);
    expect(formatDatetime(d as Datetime)).toBe("2020-01-01T00:00:00.111111111Z");
  });
});

describe("decimal casts read text as rust_decimal does (recorded from SurrealDB 2.6.0 and 1.5.4)", () => {
  const cases: [string, string | undefined][] = [
    ["0.11111111111111111111111111115", "0.1111111111111111111111111112"],
    ["0.11111111111111111111111111125", "0.1111111111111111111111111113"],
    ["0.11111111111111111111111111114999", "0.1111111111111111111111111111"],
    ["11111111111111111111111111111.5", "11111111111111111111111111112"],
    ["1111111111111111111111111111.55", "1111111111111111111111111111.6"],
    ["79228162514264337593543950335", "79228162514264337593543950335"],
    ["79228162514264337593543950336", undefined],
    ["100000000000000000000000000000", undefined],
    ["1" + "0".repeat(28), "1" + "0".repeat(28)],
    ["1." + "0".repeat(60) + "1", "1." + "0".repeat(28)],
    ["-0." + "0".repeat(35) + "1", "0." + "0".repeat(28)],
    ["1".repeat(40), undefined],
    ["0." + "1".repeat(40), "0." + "1".repeat(28)],
  ];
  for (const [text, want] of cases) {
    for (const compat of [1, 2] as const) {
      it(`<decimal> '${text}' (compat ${compat})`, () => {
        if (want === undefined) expect(castFails(text, "decimal", compat)).toBe(`Expected a decimal but cannot convert '${text}' into a decimal`);
        else expect(cast(text, basicType("decimal"), { compat })).toEqual(new Decimal(want));
      });
    }
  }
});
