// store/kv/: a stored document (any SurrealQL value) ⇄ bytes, through cbor-x with one tag per value class.
// Kept apart: int (bigint, always an 8-byte CBOR integer) and float (number, always a CBOR float), NONE (undefined)
// and NULL; bytes decode as plain Uint8Array copies, never views of the stored row.

import { Encoder, addExtension } from "cbor-x";
import { Datetime, Decimal, Duration, Geometry, RecordId, RecordIdRange, Regex, Table, Uuid, isValueObject } from "../../value/types.js";
import type { RecordIdKey, Value, ValueObject } from "../../value/types.js";

type Bound = { value: RecordIdKey; inclusive: boolean } | undefined;

/** An object with an own `__proto__` key, which cbor-x renames on decode: stored as its entries instead. */
class EntriesObject {
  constructor(readonly entries: [string, Value][]) {}
}

/** A stored record's document under a record tag (encodeRecord writes the tag itself): an edge, or no edge though it has record-id ends. */
class TaggedRecord {
  constructor(
    readonly doc: ValueObject,
    readonly edge: boolean,
  ) {}
}

const uuidText = (b: Uint8Array): string => {
  const h = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const bound = (b: Bound): unknown[] => (b === undefined ? [] : [b.inclusive, b.value]);
const unbound = (a: unknown[]): Bound => (a.length === 0 ? undefined : { inclusive: a[0] as boolean, value: a[1] as RecordIdKey });

const EDGE_TAG = 55810;
const PLAIN_TAG = 55811;

// tags in a private range no CBOR registry entry and no cbor-x built-in uses
const EXTENSIONS = [
  { Class: Decimal, tag: 55800, encode: (d: Decimal) => d.text, decode: (t: string) => new Decimal(t) },
  { Class: Duration, tag: 55801, encode: (d: Duration) => d.nanos, decode: (n: bigint) => new Duration(n) },
  { Class: Datetime, tag: 55802, encode: (d: Datetime) => d.nanos, decode: (n: bigint) => new Datetime(n) },
  { Class: Uuid, tag: 55803, encode: (u: Uuid) => Buffer.from(u.text.replace(/-/g, ""), "hex"), decode: (b: Uint8Array) => new Uuid(uuidText(b)) },
  { Class: RecordId, tag: 55804, encode: (r: RecordId) => [r.table, r.id], decode: ([t, id]: [string, RecordIdKey]) => new RecordId(t, id) },
  { Class: Table, tag: 55805, encode: (t: Table) => t.name, decode: (n: string) => new Table(n) },
  {
    Class: RecordIdRange,
    tag: 55806,
    encode: (r: RecordIdRange) => [bound(r.begin), bound(r.end)],
    decode: ([b, e]: [unknown[], unknown[]]) => new RecordIdRange(unbound(b), unbound(e)),
  },
  {
    Class: Geometry,
    tag: 55807,
    encode: (g: Geometry) => [g.type, g.coordinates],
    decode: ([t, c]: [Geometry["type"], unknown]) => new Geometry(t, c),
  },
  { Class: TaggedRecord, tag: EDGE_TAG, encode: (r: TaggedRecord) => r.doc, decode: (doc: ValueObject) => new TaggedRecord(doc, true) },
  { Class: TaggedRecord, tag: PLAIN_TAG, encode: (r: TaggedRecord) => r.doc, decode: (doc: ValueObject) => new TaggedRecord(doc, false) },
  { Class: Regex, tag: 55809, encode: (r: Regex) => r.source, decode: (s: string) => new Regex(s) },
  {
    Class: EntriesObject,
    tag: 55808,
    encode: (o: EntriesObject) => o.entries,
    decode: (entries: [string, Value][]) => {
      const out: ValueObject = {};
      for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    },
  },
] as const;

for (const { Class, tag, encode, decode } of EXTENSIONS) {
  addExtension({
    Class: Class as unknown as new (...args: unknown[]) => unknown,
    tag,
    encode: (value: unknown, next: (v: unknown) => Uint8Array) => next((encode as (v: unknown) => unknown)(value)),
    decode: decode as (v: unknown) => unknown,
  });
}

const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, alwaysUseFloat: true, tagUint8Array: false, copyBuffers: true });
const PROTO = Buffer.from("__proto__");

/** Objects with an own `__proto__` key become EntriesObject (rare: only when the fast encoding showed the word). */
function shield(v: Value): unknown {
  if (Array.isArray(v)) return v.map(shield);
  // a record id's key may hold objects too (`t:{ __proto__: 1 }`), also as a range's bounds
  if (v instanceof RecordId) return new RecordId(v.table, shield(v.id as Value) as RecordIdKey);
  if (v instanceof RecordIdRange) return new RecordIdRange(shieldBound(v.begin), shieldBound(v.end));
  if (!isValueObject(v)) return v;
  const entries = Object.keys(v).map((k) => [k, shield(v[k])] as [string, Value]);
  if (Object.prototype.hasOwnProperty.call(v, "__proto__")) return new EntriesObject(entries);
  const out: Record<string, unknown> = {};
  for (const [k, x] of entries) out[k] = x;
  return out;
}

function shieldBound(b: Bound): Bound {
  return b === undefined ? undefined : { value: shield(b.value as Value) as RecordIdKey, inclusive: b.inclusive };
}

export function encodeDocument(v: Value): Uint8Array {
  const bytes = cbor.encode(v);
  if (bytes.indexOf(PROTO) < 0) return bytes;
  return cbor.encode(shield(v));
}

export function decodeDocument(bytes: Uint8Array): Value {
  // decode from a plain Uint8Array so byte strings come out as Uint8Array copies, not Buffer views
  const plain = bytes instanceof Buffer ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
  return cbor.decode(plain) as Value;
}

/** A record as stored; `edge`: whether RELATE (or INSERT RELATION) made it, which no data clause changes. */
export interface DecodedRecord {
  readonly doc: ValueObject;
  readonly edge: boolean;
}

/** The CBOR head of a 16-bit tag (major type 6). */
const tagHead = (tag: number): Uint8Array => Uint8Array.of(0xd9, tag >> 8, tag & 0xff);
const EDGE_HEAD = tagHead(EDGE_TAG);
const PLAIN_HEAD = tagHead(PLAIN_TAG);

const hasRecordEnds = (doc: ValueObject): boolean => doc.in instanceof RecordId && doc.out instanceof RecordId;

/**
 * A record's bytes: its document, under the edge tag for an edge, and under the plain tag for a record whose `in` and
 * `out` are record ids yet is no edge (untagged, such a document was stored before the marker, when it was an edge).
 */
export function encodeRecord(doc: ValueObject, edge: boolean): Uint8Array {
  const body = encodeDocument(doc);
  const head = edge ? EDGE_HEAD : hasRecordEnds(doc) ? PLAIN_HEAD : undefined;
  if (!head) return body;
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** A record's document and marker; one stored before the marker is an edge when its `in` and `out` are record ids. */
export function decodeRecord(bytes: Uint8Array): DecodedRecord {
  const v = decodeDocument(bytes);
  if (v instanceof TaggedRecord) return { doc: v.doc, edge: v.edge };
  const doc = v as ValueObject;
  return { doc, edge: hasRecordEnds(doc) };
}
