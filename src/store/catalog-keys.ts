// store/: where each definition lives in the key-value store — SurrealDB's catalog layout, built on kv/keys.ts.
//
//   /!cv                              catalog version (bumped by every DEFINE / REMOVE)
//   /!{ns|us|ac}name                  namespaces, root users, root accesses
//   /*ns/!{db|us|ac}name              databases, namespace users and accesses
//   /*ns/*db/!{tb|us|ac|pa|fn|az}name
//   /*ns/*db/*tb/!{fd|ix|ev}name
//
// Names are kv/keys.ts's escaped, 0-terminated strings: a level's definitions (`!`, 0x21) sort before its children
// (`*`, 0x2a), and a namespace, database or table is one key range with its records and index entries.

import { concatBytes, prefixRange } from "./kv/bytes.js";
import { databaseKey, definitionKey, namespaceKey, rootKey, tableKey } from "./kv/keys.js";
import { Reader, Writer } from "./kv/ordered.js";
import type { Key, KeyRange } from "./kv/types.js";

/** Root ({}), a namespace, a database or a table: each later name needs the earlier ones. */
export interface Level {
  readonly ns?: string;
  readonly db?: string;
  readonly tb?: string;
}

/** Two-letter tags (SurrealDB's codes) of the definitions each level holds. */
export const TAGS = {
  root: ["ns", "us", "ac"],
  ns: ["db", "us", "ac"],
  db: ["tb", "us", "ac", "pa", "fn", "az"],
  tb: ["fd", "ix", "ev"],
} as const;

export type Tag = (typeof TAGS)[keyof typeof TAGS][number];

const SLASH = 0x2f;
const STAR = 0x2a;
const BANG = 0x21;

function base(at: Level): Key {
  if (at.ns === undefined) return rootKey();
  if (at.db === undefined) return namespaceKey(at.ns);
  if (at.tb === undefined) return databaseKey(at.ns, at.db);
  return tableKey(at.ns, at.db, at.tb);
}

/** The key of definition `tag` named `name` at a level. */
export function defKey(at: Level, tag: Tag, name: string): Key {
  return definitionKey(base(at), tag, name);
}

/** The key of definition `name` under `prefix`, the shared start of a level's keys of one tag (defKey with name ""). */
export function defKeyAfter(prefix: Key, name: string): Key {
  const p = prefix.length - 1;
  const out = new Uint8Array(p + name.length + 1);
  out.set(prefix);
  // a name of ASCII above 0x01 is its own escaped form (Writer.string), the common case
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 1 || c >= 0x80) {
      const w = new Writer();
      w.bytes(prefix.subarray(0, p));
      w.string(name);
      return w.result();
    }
    out[p + i] = c;
  }
  return out;
}

/** Every definition at a level (not its children's). */
export function levelDefs(at: Level): KeyRange {
  return prefixRange(concatBytes([base(at), Uint8Array.of(BANG)]));
}

/** Everything under a namespace, database or table: its definitions, its children, its records and index entries. */
export function subtree(at: Level): KeyRange {
  return prefixRange(base(at));
}

export const VERSION_KEY: Key = Uint8Array.of(SLASH, BANG, 0x63, 0x76);

const LEVEL_TAGS: readonly (readonly string[])[] = [TAGS.root, TAGS.ns, TAGS.db, TAGS.tb];

/** A definition key read back: its level, tag and name; undefined for keys that are not definitions. */
export function parseDefKey(key: Key): { at: Level; tag: Tag; name: string } | undefined {
  const r = new Reader(key);
  if (r.byte() !== SLASH) return undefined;
  const names: string[] = [];
  while (r.peek() === STAR && names.length < 3) {
    r.byte();
    names.push(r.string());
  }
  if (r.peek() !== BANG || key.length < r.at + 3) return undefined;
  r.byte();
  const tag = String.fromCharCode(r.byte(), r.byte()) as Tag;
  if (!LEVEL_TAGS[names.length]!.includes(tag)) return undefined;
  const name = r.string();
  const [ns, db, tb] = names;
  return { at: { ns, db, tb }, tag, name };
}
