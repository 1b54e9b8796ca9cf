// One entry point for the wire formats the server speaks (JSON, CBOR): RPC frames and HTTP bodies.

import { LocalError } from "../../errors/index.js";
import type { Compat } from "../../exec/session.js";
import type { Value } from "../../value/types.js";
import { CborError, CborPieceSink, CborValueError, decodeCbor, encodeCbor, salvageCbor } from "./cbor.js";
import { JsonError, JsonPieceSink, decodeJsonRpc, parseJsonText, stringifyJson } from "./json.js";
import { encodeWithSink, isSmallAnswer, joinPieces, oneAtATime } from "./pieces.js";

export { CborError, decodeCbor, encodeCbor } from "./cbor.js";
export { JsonError, coerceLegacyString, coerceLegacyStrings, decodeJsonRpc, parseJsonText, stringifyJson } from "./json.js";

export type WireFormat = "json" | "cbor";

export const MIME: Readonly<Record<WireFormat, string>> = { json: "application/json", cbor: "application/cbor" };

/**
 * Raised for any undecodable frame or body; RPC answers it with -32700 Parse error. `refused`: the frame decoded but
 * holds a value SurrealDB refuses (CBOR: an unknown tag…), the message is SurrealDB's words, and `salvaged` is the frame
 * read on past such values (for the request's id).
 */
export class DecodeError extends LocalError {
  constructor(
    message: string,
    readonly refused?: { readonly salvaged: Value },
  ) {
    super("Decode", message);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decode an RPC message of at most `maxValues` values; JSON gets the legacy string coercion of SurrealDB's JSON-RPC. */
export function decodeRpcMessage(format: WireFormat, data: Uint8Array | string, compat: Compat, maxValues?: number): Value {
  try {
    if (format === "cbor") {
      if (typeof data === "string") throw new DecodeError("Expected a binary CBOR frame");
      const opts = { compat, ...(maxValues === undefined ? {} : { maxItems: maxValues }) };
      try {
        return decodeCbor(data, opts);
      } catch (e) {
        if (e instanceof CborValueError) throw new DecodeError(e.message, { salvaged: salvageCbor(data, opts) });
        throw e;
      }
    }
    return decodeJsonRpc(typeof data === "string" ? data : utf8.decode(data), compat, maxValues);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    if (e instanceof CborError || e instanceof JsonError || e instanceof TypeError) throw new DecodeError(e.message);
    throw e;
  }
}

/** Decode a plain JSON body (no legacy coercion), as SurrealDB's JSON parser reads /signin or /key bodies. */
export function decodeJsonBody(data: Uint8Array): Value {
  try {
    return parseJsonText(utf8.decode(data));
  } catch (e) {
    throw new DecodeError(e instanceof Error ? e.message : String(e));
  }
}

export function encodeValue(format: WireFormat, v: Value, compat: Compat): string | Uint8Array {
  return format === "cbor" ? encodeCbor(v, { compat }) : stringifyJson(v, { compat });
}

/** encodeValue's bytes for an answer, at once when it is small (the fast path), else undefined: send it in pieces. */
export function encodeSmall(format: WireFormat, v: Value, compat: Compat): string | Uint8Array | undefined {
  return isSmallAnswer(v) ? encodeValue(format, v, compat) : undefined;
}

const piecesOf = (format: WireFormat, v: Value, compat: Compat, gone?: () => boolean): Promise<Uint8Array[] | undefined> =>
  encodeWithSink(format === "cbor" ? new CborPieceSink(compat) : new JsonPieceSink(compat), v, gone);

/**
 * encodeValue's bytes for an answer as pieces, encoded with a turn of the event loop between pieces (attack pass 11,
 * I5: one large answer held the loop for seconds), one large answer at a time; undefined once `gone()` (the receiver
 * left: the rest is not encoded).
 */
export function encodeInPieces(format: WireFormat, v: Value, compat: Compat, gone?: () => boolean): Promise<Uint8Array[] | undefined> {
  return oneAtATime(() => piecesOf(format, v, compat, gone));
}

/** encodeValue's bytes for an answer sent as one frame: at once when small, else in pieces joined in pieces (one at a time). */
export function encodeFrame(format: WireFormat, v: Value, compat: Compat, gone?: () => boolean): string | Uint8Array | Promise<Uint8Array | undefined> {
  return encodeSmall(format, v, compat) ?? oneAtATime(() => piecesOf(format, v, compat, gone).then((pieces) => pieces && joinPieces(pieces, gone)));
}

/**
 * An array sent in pieces as its items are made, never whole: JSON's brackets and commas, or a CBOR array of
 * indefinite length (the same value to any CBOR reader; its length is not known when the first piece goes out).
 */
export class ArrayPieces {
  private first = true;

  constructor(
    readonly format: WireFormat,
    private readonly compat: Compat,
  ) {}

  open(): string | Uint8Array {
    return this.format === "cbor" ? Uint8Array.of(0x9f) : "[";
  }

  items(values: readonly Value[]): string | Uint8Array {
    if (this.format === "cbor") return Buffer.concat(values.map((v) => encodeCbor(v, { compat: this.compat })));
    const text = values.map((v) => stringifyJson(v, { compat: this.compat })).join(",");
    const lead = this.first || text === "" ? "" : ",";
    if (text !== "") this.first = false;
    return lead + text;
  }

  close(): string | Uint8Array {
    return this.format === "cbor" ? Uint8Array.of(0xff) : "]";
  }
}
