// Properties of the codecs: decoding arbitrary input fails only with the codec's own error; values survive a round trip.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CborError, decodeCbor, encodeCbor } from "../../../src/server/codec/cbor.js";
import { JsonError, parseJsonText, stringifyJson } from "../../../src/server/codec/json.js";
import { DecodeError, decodeRpcMessage } from "../../../src/server/codec/index.js";
import { Datetime, Decimal, Duration, RecordId, Table, Uuid, type Value } from "../../../src/value/types.js";

const i64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const leaf: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  i64,
  fc.double({ noNaN: true }),
  fc.string(),
  fc.uint8Array({ maxLength: 8 }),
  fc.string({ minLength: 1 }).map((s) => new Table(s)),
  fc.tuple(fc.string({ minLength: 1 }), fc.oneof(i64, fc.string())).map(([t, id]) => new RecordId(t, id)),
  fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }).map((n) => new Duration(n)),
  fc.bigInt({ min: -(1n << 62n), max: 1n << 62n }).map((n) => new Datetime(n)),
  fc.uuid().map((u) => new Uuid(u)),
  fc.integer().map((n) => new Decimal(`${n}.5`)),
);
const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 4 }), fc.dictionary(fc.string(), tie("v"), { maxKeys: 4 })),
})).v;

describe("codec properties", () => {
  it("CBOR: decode(encode(v)) = v", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(decodeCbor(encodeCbor(v))).toEqual(v);
      }),
    );
  });

  it("CBOR: arbitrary bytes decode or fail with CborError, nothing else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          decodeCbor(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(CborError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("JSON: arbitrary text parses or fails with JsonError", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          parseJsonText(text);
        } catch (e) {
          expect(e).toBeInstanceOf(JsonError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("JSON: our parser agrees with JSON.parse on valid JSON (numbers as their JS value)", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const plain = (v: unknown): unknown =>
          typeof v === "bigint" ? Number(v) : Array.isArray(v) ? v.map(plain) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v;
        const ours = parseJsonText(text);
        expect(plain(ours)).toEqual(JSON.parse(text));
        expect(plain(parseJsonText(stringifyJson(ours)))).toEqual(JSON.parse(text));
      }),
    );
  });

  it("RPC frames: any input decodes or fails with DecodeError", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), fc.uint8Array({ maxLength: 32 }), (text, bytes) => {
        for (const attempt of [() => decodeRpcMessage("json", text, 2), () => decodeRpcMessage("json", text, 1), () => decodeRpcMessage("cbor", bytes, 2)]) {
          try {
            attempt();
          } catch (e) {
            expect(e).toBeInstanceOf(DecodeError);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
