// store/kv/: SurrealDB's key layout as order-preserving bytes — root / ns / db / table / record / index entry /
// graph edge — so a table, an index or a record's edges are key ranges, and bytewise order is SurrealDB's key order.
//
// Layout (names are escaped, 0-terminated strings; `id` and index values use ordered.ts's value encoding):
//   /                                  root            /*ns\0                       namespace
//   /*ns\0*db\0                        database        /*ns\0*db\0*tb\0             table
//   /*ns\0*db\0*tb\0*id                record          /*ns\0*db\0*tb\0+ix\0*v…[id] index entry
//   /*ns\0*db\0*tb\0~id{<|>}ft\0fid    graph edge      base!code name\0             a definition

import { RecordId, type RecordIdKey, type Value } from "../../value/types.js";
import { prefixRange } from "./bytes.js";
import { Reader, Writer, readId, readValue, utf8, writeId, writeValue } from "./ordered.js";
import type { Key, KeyRange } from "./types.js";

export { decodeRecordIdKey, decodeValue, encodeRecordIdKey, encodeValue } from "./ordered.js";

const CH = { slash: 0x2f, star: 0x2a, plus: 0x2b, tilde: 0x7e, bang: 0x21, in: 0x3c, out: 0x3e } as const;

/** The direction of a graph edge key, seen from the record it is stored under. */
export type EdgeDirection = "in" | "out";

function layout(build: (w: Writer) => void): Key {
  const w = new Writer();
  build(w);
  return w.result();
}

function writeBase(w: Writer, ns?: string, db?: string, tb?: string): void {
  w.byte(CH.slash);
  for (const name of [ns, db, tb]) {
    if (name === undefined) return;
    w.byte(CH.star);
    w.string(name);
  }
}

/** `/`: the root, under which root-level definitions live. */
export function rootKey(): Key {
  return layout((w) => writeBase(w));
}

/** `/*ns\0` */
export function namespaceKey(ns: string): Key {
  return layout((w) => writeBase(w, ns));
}

/** `/*ns\0*db\0` */
export function databaseKey(ns: string, db: string): Key {
  return layout((w) => writeBase(w, ns, db));
}

/** `/*ns\0*db\0*tb\0`: everything stored under a table (records, index entries, edges, table definitions). */
export function tableKey(ns: string, db: string, tb: string): Key {
  return layout((w) => writeBase(w, ns, db, tb));
}

/** `/*ns\0*db\0*tb\0*id` */
export function recordKey(ns: string, db: string, tb: string, id: RecordIdKey): Key {
  return layout((w) => {
    writeBase(w, ns, db, tb);
    w.byte(CH.star);
    writeId(w, id);
  });
}

/** Every record of a table, in SurrealDB's key order: a table scan. */
export function tableRecordsRange(ns: string, db: string, tb: string): KeyRange {
  return prefixRange(layout((w) => (writeBase(w, ns, db, tb), w.byte(CH.star))));
}

export interface RecordKeyParts {
  readonly ns: string;
  readonly db: string;
  readonly tb: string;
  readonly id: RecordIdKey;
}

/** Reads `/*ns\0*db\0*tb\0`. */
function readBase(r: Reader): { ns: string; db: string; tb: string } {
  r.expect(CH.slash);
  const names: string[] = [];
  for (let i = 0; i < 3; i++) {
    r.expect(CH.star);
    names.push(r.string());
  }
  return { ns: names[0]!, db: names[1]!, tb: names[2]! };
}

export function decodeRecordKey(key: Key): RecordKeyParts {
  const r = new Reader(key);
  const base = readBase(r);
  r.expect(CH.star);
  const id = readId(r);
  if (r.at !== key.length) throw new RangeError("trailing bytes after a record key");
  return { ...base, id };
}

function writeIndexBase(w: Writer, ns: string, db: string, tb: string, ix: string): void {
  writeBase(w, ns, db, tb);
  w.byte(CH.plus);
  w.string(ix);
  w.byte(CH.star);
}

/**
 * `…*tb\0+ix\0*v1v2…` for a UNIQUE index (one entry per value tuple; the record id is the stored value), and
 * `…*v1v2…id` for a non-unique one (the record id appended, so equal values stay apart and sort by id).
 */
export function indexEntryKey(ns: string, db: string, tb: string, ix: string, values: readonly Value[], id?: RecordIdKey): Key {
  return layout((w) => {
    writeIndexBase(w, ns, db, tb, ix);
    for (const v of values) writeValue(w, v);
    if (id !== undefined) writeId(w, id);
  });
}

/** Every entry of an index. */
export function indexRange(ns: string, db: string, tb: string, ix: string): KeyRange {
  return prefixRange(layout((w) => writeIndexBase(w, ns, db, tb, ix)));
}

/** The entries whose leading values equal `values` (all of them: the entries of one value tuple). */
export function indexValuesRange(ns: string, db: string, tb: string, ix: string, values: readonly Value[]): KeyRange {
  return prefixRange(indexEntryKey(ns, db, tb, ix, values));
}

/** The values and (non-unique index) the record id of an index entry key with `fields` indexed fields. */
export function decodeIndexEntryKey(key: Key, fields: number): { values: Value[]; id?: RecordIdKey } {
  const r = new Reader(key);
  readBase(r);
  r.expect(CH.plus);
  r.escaped();
  r.expect(CH.star);
  const values: Value[] = [];
  for (let i = 0; i < fields; i++) values.push(readValue(r));
  if (r.at === key.length) return { values };
  return { values, id: readId(r) };
}

function writeEdgeBase(w: Writer, ns: string, db: string, tb: string, id: RecordIdKey, dir?: EdgeDirection): void {
  writeBase(w, ns, db, tb);
  w.byte(CH.tilde);
  writeId(w, id);
  if (dir !== undefined) w.byte(dir === "in" ? CH.in : CH.out);
}

/** `…*tb\0~id>ft\0fid`: record `tb:id` has an outgoing (or incoming) edge to the record `ft:fid`. */
export function edgeKey(ns: string, db: string, tb: string, id: RecordIdKey, dir: EdgeDirection, other: RecordId): Key {
  return layout((w) => {
    writeEdgeBase(w, ns, db, tb, id, dir);
    w.string(other.table);
    writeId(w, other.id);
  });
}

/** A record's edges: all, one direction, or one direction to one foreign table. */
export function edgesRange(ns: string, db: string, tb: string, id: RecordIdKey, dir?: EdgeDirection, foreignTable?: string): KeyRange {
  return prefixRange(
    layout((w) => {
      writeEdgeBase(w, ns, db, tb, id, dir);
      if (dir !== undefined && foreignTable !== undefined) w.string(foreignTable);
    }),
  );
}

export function decodeEdgeKey(key: Key): RecordKeyParts & { dir: EdgeDirection; other: RecordId } {
  const r = new Reader(key);
  const base = readBase(r);
  r.expect(CH.tilde);
  const id = readId(r);
  const dir = r.byte() === CH.in ? "in" : "out";
  const table = r.string();
  return { ...base, id, dir, other: new RecordId(table, readId(r)) };
}

/** `base!code name\0`: a definition under root, a namespace, a database or a table (code as SurrealDB's: "us", "ac", "tb" …). */
export function definitionKey(base: Key, code: string, name: string): Key {
  return layout((w) => {
    w.bytes(base);
    w.byte(CH.bang);
    w.bytes(utf8.encode(code));
    w.string(name);
  });
}

/** Every definition of one kind under a base. */
export function definitionsRange(base: Key, code: string): KeyRange {
  return prefixRange(
    layout((w) => {
      w.bytes(base);
      w.byte(CH.bang);
      w.bytes(utf8.encode(code));
    }),
  );
}
