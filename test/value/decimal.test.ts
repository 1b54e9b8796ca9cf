import { describe, expect, it } from "vitest";
import {
  decimalExponentTooLarge,
  decimalFromText,
  decimalAdd,
  decimalDiv,
  decimalFromFloat,
  decimalMul,
  decimalNeg,
  decimalRem,
  decimalSub,
  parseDecimalText,
} from "../../src/value/decimal.js";
import { Decimal } from "../../src/value/types.js";

const d = (s: string) => new Decimal(s);

// `<string>(a op b)` with decimals on SurrealDB 1.5.4 and 2.6.0 (rust_decimal semantics).
describe("decimal arithmetic", () => {
  it("division follows rust_decimal's scale rules", () => {
    const cases: [string, string, string][] = [
      ["7", "2", "3.50"],
      ["10", "4", "2.50"],
      ["1", "8", "0.125"],
      ["6", "3", "2"],
      ["1.0", "2", "0.5"],
      ["3", "1.5", "2.0"],
      ["1", "4", "0.25"],
      ["2", "0.5", "4.0"],
      ["100", "10", "10"],
      ["1", "3", "0.3333333333333333333333333333"],
      ["2", "3", "0.6666666666666666666666666667"],
      ["-7", "2", "-3.50"],
      ["0", "5", "0"],
      ["100", "7", "14.285714285714285714285714286"],
      ["1", "7", "0.1428571428571428571428571429"],
      ["22", "7", "3.1428571428571428571428571429"],
    ];
    for (const [a, b, q] of cases) expect(decimalDiv(d(a), d(b))!.text, `${a} / ${b}`).toBe(q);
    expect(decimalDiv(d("1"), d("0"))).toBeUndefined();
  });
  it("add, sub, mul keep scales; mul rounds beyond 28 digits", () => {
    expect(decimalAdd(d("1.5"), d("1.5"))!.text).toBe("3.0");
    expect(decimalAdd(d("0.5"), d("0.50"))!.text).toBe("1.00");
    expect(decimalSub(d("1"), d("1.00"))!.text).toBe("0.00");
    expect(decimalMul(d("1.25"), d("1.25"))!.text).toBe("1.5625");
    expect(decimalMul(d("0.1"), d("0.1"))!.text).toBe("0.01");
    expect(decimalMul(decimalMul(d("1"), d("0.0000000000000001"))!, d("0.0000000000000001"))!.text).toBe("0.0000000000000000000000000000");
  });
  it("a result past rust_decimal's 96-bit mantissa drops fractional digits, then overflows (SurrealDB 1.5.4 and 2.6.0; attack pass 8, F3)", () => {
    const max = "79228162514264337593543950335";
    expect(decimalMul(d("1234567890123456789.123456789"), d("1234567890.123456789"))!.text).toBe("1524157875323883675171467786.3");
    expect(decimalMul(d("1e28"), d("1e28"))).toBeUndefined();
    expect(decimalMul(d(max), d("1.5"))).toBeUndefined();
    expect(decimalAdd(d(max), d("1"))).toBeUndefined();
    expect(decimalSub(d("-" + max), d("1"))).toBeUndefined();
    expect(decimalFromFloat(1e20)!.text).toBe("100000000000000000000");
    expect(decimalFromFloat(1e29)).toBeUndefined();
    expect(decimalFromFloat(1e308)).toBeUndefined();
    // squaring again and again stops at the mantissa instead of doubling its digits
    let x: Decimal | undefined = d("1.0000001");
    for (let i = 0; i < 64 && x; i++) x = decimalMul(x, x);
    expect(x).toBeUndefined();
  });
  it("remainder has the dividend's sign", () => {
    expect(decimalRem(d("7.5"), d("2"))!.text).toBe("1.5");
    expect(decimalRem(d("-7"), d("2"))!.text).toBe("-1");
    expect(decimalRem(d("1"), d("0"))).toBeUndefined();
  });
  it("negation, parsing, floats", () => {
    expect(decimalNeg(d("2")).text).toBe("-2");
    expect(decimalNeg(d("0")).text).toBe("0");
    expect(parseDecimalText("1e3")).toEqual({ unscaled: 1000n, scale: 0 });
    expect(parseDecimalText("abc")).toBeUndefined();
    expect(decimalFromFloat(0.1)!.text).toBe("0.1");
    expect(decimalFromFloat(1.0)!.text).toBe("1");
    expect(decimalFromFloat(1e20)!.text).toBe("100000000000000000000");
    expect(decimalFromFloat(NaN)).toBeUndefined();
  });
});

describe("decimalFromText: rust_decimal's reading of decimal text (the parser's `dec` literals and the CBOR decoder)", () => {
  it.each([
    ["1.50", "1.50"],
    ["-0.5", "-0.5"],
    [".5", "0.5"],
    ["3.", "3"],
    ["1e3", "1000"],
    ["2.5E-3", "0.0025"],
    ["-1e28", "-10000000000000000000000000000"],
    ["79228162514264337593543950335", "79228162514264337593543950335"],
  ])("%s → %s", (text, printed) => {
    expect(decimalFromText(text)?.text).toBe(printed);
  });

  it.each(["", ".", "e5", "1e", "1.2.3", "0x10", "1e29", "1e-29", "1e30000000", "79228162514264337593543950336"])("refuses %j", (text) => {
    expect(decimalFromText(text)).toBeUndefined();
  });

  it("names an exponent beyond ±28 apart, without reading the digits", () => {
    expect(decimalExponentTooLarge("1e30000000")).toBe(30000000);
    expect(decimalExponentTooLarge("1e-29")).toBe(29);
    expect(decimalExponentTooLarge("1e28")).toBeUndefined();
    expect(decimalExponentTooLarge("15")).toBeUndefined();
  });
});
