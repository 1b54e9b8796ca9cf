// store/: where each definition lives in the key-value store — SurrealDB's catalog layout, order-preserving.
//
//   /!cv                          catalog version (bumped by every DEFINE / REMOVE)
//   /!{ns|us|ac}name              namespaces, root users, root accesses
//   /*ns/!{db|us|ac}name          databases, namespace users and accesses
//   /*ns/*db/!{tb|us|ac|pa|fn|az}name
//   /*ns/*db/*tb/!{fd|ix|ev}name
//
// A name is its UTF-8 bytes, 0x00 escaped as 0x00 0xFF, then a 0x00 terminator: keys sort as their names do and
// a level's definitions (`!`, 0x21) sort before its children (`*`, 0x2a).

import type { Key, KeyRange } from "./kv/types.js";

/** Root ({}), a namespace, a database or a table: each later name needs the earlier ones. */
export interface Level {
  readonly ns?: string;
  readonly db?: string;
  readonly tb?: string;
}

/** Two-letter tags of the definitions each level holds. */
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
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function name(out: number[], s: string): void {
  for (const b of encoder.encode(s)) {
    out.push(b);
    if (b === 0) out.push(0xff);
  }
  out.push(0);
}

function levelBytes(at: Level): number[] {
  const out = [SLASH];
  if (at.ns === undefined) return out;
  out.push(STAR);
  name(out, at.ns);
  if (at.db === undefined) return out;
  out.push(STAR);
  name(out, at.db);
  if (at.tb === undefined) return out;
  out.push(STAR);
  name(out, at.tb);
  return out;
}

/** The key of definition `tag` named `n` at a level. */
export function defKey(at: Level, tag: Tag, n: string): Key {
  const out = levelBytes(at);
  out.push(BANG, tag.charCodeAt(0), tag.charCodeAt(1));
  name(out, n);
  return Uint8Array.from(out);
}

/** Every definition at a level (not its children's). */
export function levelDefs(at: Level): KeyRange {
  const p = levelBytes(at);
  return { start: Uint8Array.from([...p, BANG]), end: Uint8Array.from([...p, BANG + 1]) };
}

/** Everything under a namespace, database or table: its definitions, its children, its records and index entries. */
export function subtree(at: Level): KeyRange {
  const p = levelBytes(at);
  // after a name's terminator comes `!` or `*`, never 0xff (that would be an escaped 0x00 of a longer name)
  return { start: Uint8Array.from(p), end: Uint8Array.from([...p, 0xff]) };
}

export const VERSION_KEY: Key = Uint8Array.from([SLASH, BANG, 0x63, 0x76]);

/** A definition key read back: its level, tag and name; undefined for keys that are not definitions. */
export function parseDefKey(key: Key): { at: Level; tag: Tag; name: string } | undefined {
  let i = 1;
  const names: string[] = [];
  const readName = (): string => {
    const bytes: number[] = [];
    while (i < key.length) {
      const b = key[i++]!;
      if (b !== 0) bytes.push(b);
      else if (key[i] === 0xff) bytes.push(0), i++;
      else return decoder.decode(Uint8Array.from(bytes));
    }
    throw new TypeError("catalog key: unterminated name");
  };
  if (key[0] !== SLASH) return undefined;
  while (key[i] === STAR && names.length < 3) {
    i++;
    names.push(readName());
  }
  if (key[i] !== BANG || i + 3 > key.length) return undefined;
  const tag = String.fromCharCode(key[i + 1]!, key[i + 2]!) as Tag;
  const levelTags: readonly string[] = [TAGS.root, TAGS.ns, TAGS.db, TAGS.tb][names.length]!;
  if (!levelTags.includes(tag)) return undefined;
  i += 3;
  const n = readName();
  const at: Level = names.length === 0 ? {} : names.length === 1 ? { ns: names[0]! } : names.length === 2 ? { ns: names[0]!, db: names[1]! } : { ns: names[0]!, db: names[1]!, tb: names[2]! };
  return { at, tag, name: n };
}
