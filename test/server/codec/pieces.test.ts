// server/codec/pieces.ts: a large answer is encoded a piece at a time with a turn of the event loop between pieces
// (attack pass 11, I5), and the pieces together are the bytes the whole-value encoders write (JSON and CBOR, both
// compats), whatever falls on a piece boundary.

import { describe, expect, it } from "vitest";
import { encodeFrame, encodeInPieces, encodeSmall, encodeValue, type WireFormat } from "../../../src/server/codec/index.js";
import { ANSWER_PIECE, joinPieces, workWithin } from "../../../src/server/codec/pieces.js";
import { Datetime, Decimal, Duration, RecordId, Uuid, type Value } from "../../../src/value/types.js";

/** A string whose piece boundaries fall on a surrogate pair, a lone high then a pair, a lone low, escapes and NULs. */
function hostile(cut: string): string {
  const unit = '\0a"\\é😀\n\u2028\x7f';
  const head = "x".repeat(ANSWER_PIECE - 1);
  return head + cut + unit.repeat(ANSWER_PIECE / 8) + head.slice(1) + cut + "tail";
}

const CUTS = ["😀", "\ud800😀", "\udc00\ud800", "\ud800\udc00", "\0\0", "é", '"', "\ud800"];

const rows = Array.from({ length: 10_000 }, (_, i) => ({
  id: new RecordId("person", BigInt(i)),
  at: new Datetime(BigInt(i) * 1_000_000_007n),
  n: i % 2 ? 1.5 : BigInt(i),
  none: undefined,
  tags: [new Uuid("0190d5a3-8b4e-7c6f-9d2a-1b3c4d5e6f70"), new Duration(BigInt(i)), new Decimal("1.10")],
}));

const LARGE: readonly [string, Value][] = [
  ...CUTS.map((cut): [string, Value] => [`a string cut at ${JSON.stringify(cut)}`, hostile(cut)]),
  ["an RPC answer around a long string", { id: 1n, result: [{ result: hostile("😀"), status: "OK", time: "1ms" }] }],
  ["bytes", { b: Uint8Array.from({ length: 3 * ANSWER_PIECE + 7 }, (_, i) => i % 256), a: [] }],
  ["rows of typed values", { result: rows, status: "OK", time: "3ms" }],
  ["nested arrays and objects", [[rows.slice(0, 6_000)], { z: rows.slice(6_000), a: { [hostile("")]: "key" } }, null]],
];

const bytesOf = (frame: string | Uint8Array): Buffer => (typeof frame === "string" ? Buffer.from(frame, "utf8") : Buffer.from(frame));

describe("large answers in pieces (attack pass 11, I5)", () => {
  for (const compat of [1, 2] as const) {
    for (const format of ["json", "cbor"] as WireFormat[]) {
      it(`${format}, compat ${compat}: the pieces together are encodeValue's bytes`, async () => {
        for (const [name, v] of LARGE) {
          const pieces = await encodeInPieces(format, v, compat);
          expect(pieces!.length, name).toBeGreaterThan(1);
          expect(Buffer.concat(pieces!).equals(bytesOf(encodeValue(format, v, compat))), name).toBe(true);
          expect(encodeSmall(format, v, compat), name).toBeUndefined();
        }
      });
    }
  }

  it("a record id with a long key goes out as JSON text in pieces, and whole as CBOR (its bytes copied)", async () => {
    for (const compat of [1, 2] as const) {
      for (const v of [new RecordId("t", hostile("😀")), new RecordId("t", [hostile("\ud800"), 1n]), { rid: new RecordId("t", { k: hostile("\0\0") }) }]) {
        const json = await encodeInPieces("json", v, compat);
        expect(json!.length).toBeGreaterThan(1);
        expect(Buffer.concat(json!).equals(bytesOf(encodeValue("json", v, compat)))).toBe(true);
        expect(Buffer.concat((await encodeInPieces("cbor", v, compat))!).equals(bytesOf(encodeValue("cbor", v, compat)))).toBe(true);
      }
    }
  });

  it("the event loop turns between pieces", async () => {
    for (const format of ["json", "cbor"] as WireFormat[]) {
      let turns = 0;
      let running = true;
      const tick = (): void => {
        turns++;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      const v = { result: rows, text: hostile("😀") };
      await encodeInPieces(format, v, 2);
      running = false;
      // a turn after each piece of work (a piece may run past ANSWER_PIECE by one part)
      expect(turns).toBeGreaterThanOrEqual(Math.floor(workWithin(v, Infinity) / (2 * ANSWER_PIECE)));
    }
  });

  it("one large answer is encoded at a time: the next starts once the one before is done", async () => {
    let firstDone = false;
    let startedEarly: boolean | undefined;
    const probe: Record<string, Value> = {};
    // read when the second answer's encoding starts
    Object.defineProperty(probe, "x", { enumerable: true, get: () => ((startedEarly ??= !firstDone), 1n) });
    const first = encodeInPieces("json", rows, 2).then(() => (firstDone = true));
    const second = encodeInPieces("cbor", [probe, rows], 2);
    expect(startedEarly).toBeUndefined();
    await Promise.all([first, second]);
    expect(startedEarly).toBe(false);
  });

  it("stops once the receiver is gone", async () => {
    let asked = 0;
    expect(await encodeInPieces("json", rows, 2, () => ++asked > 1)).toBeUndefined();
    expect(asked).toBe(2);
  });

  it("a frame is encodeValue's bytes: at once for a small answer, joined from pieces for a large one", async () => {
    const small = { id: 1n, result: [{ result: 1n, status: "OK", time: "9µs" }] };
    for (const format of ["json", "cbor"] as WireFormat[]) {
      const now = encodeFrame(format, small, 2);
      expect(now).not.toBeInstanceOf(Promise);
      expect(now).toEqual(encodeValue(format, small, 2));
      const large = { id: 1n, result: [{ result: rows, status: "OK", time: "1ms" }] };
      const later = encodeFrame(format, large, 2);
      expect(later).toBeInstanceOf(Promise);
      expect(bytesOf((await later)!).equals(bytesOf(encodeValue(format, large, 2)))).toBe(true);
    }
  });

  it("joinPieces copies the pieces in order", async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => new Uint8Array(300_000).fill(i));
    const whole = Buffer.concat(pieces);
    expect(Buffer.from((await joinPieces(pieces.slice()))!).equals(whole)).toBe(true);
    expect(await joinPieces(pieces.slice(), () => true)).toBeUndefined();
  });
});
