// store/: how one definition is stored — its AST (with generated secrets) as tagged JSON, exact to the last field.
// Plain JSON data stays as it is; values JSON has no word for become `{"$": tag, "v": …}`; object keys that start
// with "$" get one more "$", so a tag can never be confused with data.

import { setField } from "../value/object.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, RecordIdRange, Regex, Table, Uuid } from "../value/types.js";
import type { RecordIdKey } from "../value/types.js";

/** The first byte of every stored definition: the layout of what follows (bump when the AST changes shape). */
const FORMAT = 1;

type Tree = null | boolean | number | string | Tree[] | { [key: string]: Tree };

const encoder = new TextEncoder();
const decoder = new TextDecoder();


function tag(t: string, v: Tree): Tree {
  return { $: t, v };
}

function bound(b: { value: RecordIdKey; inclusive: boolean } | undefined): Tree {
  return b === undefined ? NONE : [toTree(b.value), b.inclusive];
}

const NONE: Tree = { $: "N" };

/**
 * The JSON tree of any AST or value, without the AST's source positions (where a definition's text was says nothing
 * about the definition, and they were a third of the bytes); `same` also sorts object keys (for comparing).
 */
function toTree(x: unknown, same = false): Tree {
  if (x === undefined) return NONE;
  if (x === null || typeof x === "boolean" || typeof x === "string") return x;
  if (typeof x === "number") return Number.isFinite(x) && !Object.is(x, -0) ? x : tag("f", String(Object.is(x, -0) ? "-0" : x));
  if (typeof x === "bigint") return tag("i", x.toString());
  if (Array.isArray(x)) return x.map((v) => toTree(v, same));
  if (x instanceof Duration) return tag("dur", x.nanos.toString());
  if (x instanceof Datetime) return tag("dt", x.nanos.toString());
  if (x instanceof Decimal) return tag("dec", x.text);
  if (x instanceof Uuid) return tag("uuid", x.text);
  if (x instanceof Table) return tag("tb", x.name);
  if (x instanceof Regex) return tag("re", x.source);
  if (x instanceof RecordId) return tag("rid", [x.table, toTree(x.id, same)]);
  if (x instanceof RecordIdRange) return tag("rng", [bound(x.begin), bound(x.end)]);
  if (x instanceof Uint8Array) return tag("by", Buffer.from(x).toString("base64"));
  if (x instanceof Geometry) return tag("geo", [x.type, toTree(x.coordinates)]);
  if (typeof x === "object") {
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`catalog codec: cannot store a ${proto?.constructor?.name ?? "value"}`);
    const out: { [key: string]: Tree } = {};
    const entries = Object.entries(x);
    if (same) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // an AST node's source position (a node has a string `kind`)
    const dropPos = typeof (x as { kind?: unknown }).kind === "string";
    for (const [k, v] of entries) if (!(dropPos && k === "pos")) setField(out, k.startsWith("$") ? `$${k}` : k, toTree(v, same));
    return out;
  }
  throw new TypeError(`catalog codec: cannot store a ${typeof x}`);
}

function fromBound(t: Tree): { value: RecordIdKey; inclusive: boolean } | undefined {
  if (!Array.isArray(t)) return undefined;
  return { value: fromTree(t[0]!) as RecordIdKey, inclusive: t[1] as boolean };
}

const TAGS: Record<string, (v: Tree) => unknown> = {
  N: () => undefined,
  f: (v) => (v === "-0" ? -0 : Number(v)),
  i: (v) => BigInt(v as string),
  dur: (v) => new Duration(BigInt(v as string)),
  dt: (v) => new Datetime(BigInt(v as string)),
  dec: (v) => new Decimal(v as string),
  uuid: (v) => new Uuid(v as string),
  tb: (v) => new Table(v as string),
  re: (v) => new Regex(v as string),
  rid: (v) => new RecordId((v as Tree[])[0] as string, fromTree((v as Tree[])[1]!) as RecordIdKey),
  rng: (v) => new RecordIdRange(fromBound((v as Tree[])[0]!), fromBound((v as Tree[])[1]!)),
  by: (v) => new Uint8Array(Buffer.from(v as string, "base64")),
  geo: (v) => new Geometry((v as Tree[])[0] as Geometry["type"], fromTree((v as Tree[])[1]!)),
};

function fromTree(t: Tree): unknown {
  if (t === null || typeof t !== "object") return t;
  if (Array.isArray(t)) return t.map(fromTree);
  const tg = t["$"];
  if (typeof tg === "string") {
    const make = TAGS[tg];
    if (!make) throw new TypeError(`catalog codec: unknown tag '${tg}'`);
    return make(t["v"]!);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t)) setField(out, k.startsWith("$") ? k.slice(1) : k, fromTree(v));
  return out;
}

/** The stored bytes of a definition (AST, StoredUser, StoredAccess). */
export function encodeDefinition(def: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(toTree(def)));
  const out = new Uint8Array(body.length + 1);
  out[0] = FORMAT;
  out.set(body, 1);
  return out;
}

/** True when two definitions are the same but for where their text was. */
export function sameDefinition(a: unknown, b: unknown): boolean {
  return JSON.stringify(toTree(a, true)) === JSON.stringify(toTree(b, true));
}

/** The definition back from its stored bytes. */
export function decodeDefinition(bytes: Uint8Array): unknown {
  if (bytes[0] !== FORMAT) throw new TypeError(`catalog codec: unknown format ${bytes[0]}`);
  return fromTree(JSON.parse(decoder.decode(bytes.subarray(1))) as Tree);
}
