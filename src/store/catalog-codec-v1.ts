// store/: reading definitions stored in the first layout (format 1: tagged JSON), so catalogs written before the
// binary layout (catalog-codec.ts) still load. Plain JSON data is as it was; values JSON has no word for are
// `{"$": tag, "v": …}`; object keys that start with "$" carry one more "$".

import { setField } from "../value/object.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, RecordIdRange, Regex, Table, Uuid } from "../value/types.js";
import type { RecordIdKey } from "../value/types.js";

type Tree = null | boolean | number | string | Tree[] | { [key: string]: Tree };

const decoder = new TextDecoder();

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

/** A format-1 definition from its stored bytes (after the format byte). */
export function decodeJsonDefinition(body: Uint8Array): unknown {
  return fromTree(JSON.parse(decoder.decode(body)) as Tree);
}
