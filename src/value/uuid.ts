// UUID parsing and generation (v4, v7) for uuid literals, casts and rand::uuid.
import { randomBytes, randomUUID } from "node:crypto";
import { QUERY_MESSAGES } from "../errors/catalogue.js";
import { SurrealError } from "../errors/index.js";
import { Uuid } from "./types.js";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Hyphenated form only (as SurrealDB's `u"…"` and `<uuid>` accept); lower-cased. */
export function tryParseUuid(text: string): Uuid | undefined {
  return UUID.test(text) ? new Uuid(text.toLowerCase()) : undefined;
}

/** Every text form the `uuid` crate parses, as `<uuid>` casts accept: hyphenated, simple, braced, urn. */
export function tryParseUuidAny(text: string): Uuid | undefined {
  const strict = tryParseUuid(text);
  if (strict) return strict;
  let m = /^[0-9a-fA-F]{32}$/.exec(text)?.[0];
  if (!m) m = /^\{([0-9a-fA-F-]{36})\}$/.exec(text)?.[1];
  if (!m) m = /^urn:uuid:([0-9a-fA-F-]{36})$/.exec(text)?.[1];
  if (!m) return undefined;
  if (m.length === 36) return tryParseUuid(m);
  const h = m.toLowerCase();
  return new Uuid(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
}

export function parseUuid(text: string): Uuid {
  const u = tryParseUuid(text);
  if (u === undefined) throw new SurrealError("InvalidUuid", QUERY_MESSAGES.InvalidUuid(text));
  return u;
}

export function uuidV4(): Uuid {
  return new Uuid(randomUUID());
}

/** RFC 9562 v7: 48-bit Unix milliseconds, then random bits. */
export function uuidV7(nowMillis: number = Date.now()): Uuid {
  const b = randomBytes(16);
  let ms = BigInt(Math.floor(nowMillis));
  for (let i = 5; i >= 0; i--) {
    b[i] = Number(ms & 0xffn);
    ms >>= 8n;
  }
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return new Uuid(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
}

/** The 16 bytes of a uuid (CBOR tag 37). */
export function uuidToBytes(u: Uuid): Uint8Array {
  return Uint8Array.from(Buffer.from(u.text.replace(/-/g, ""), "hex"));
}

export function uuidFromBytes(b: Uint8Array): Uuid {
  const h = Buffer.from(b).toString("hex");
  return new Uuid(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
}
