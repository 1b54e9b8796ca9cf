// test/store: walking a catalog's stored entries.

import { DefMap, storedForm, type Catalog } from "../../src/store/catalog.js";
import type { Tag } from "../../src/store/catalog-keys.js";

/** Every stored entry of a catalog with its tag. */
export function* catalogEntries(c: Catalog): Generator<[Tag, unknown]> {
  function* walk(holder: object): Generator<[Tag, unknown]> {
    for (const m of Object.values(holder)) {
      if (!(m instanceof DefMap)) continue;
      for (const v of m.values()) {
        yield [m.tag, storedForm(m.tag, v)];
        if (m.tag === "ns" || m.tag === "db" || m.tag === "tb") yield* walk(v as object);
      }
    }
  }
  yield* walk(c);
}


/** `x` without the AST's source positions, which the catalog does not store. */
export function withoutPositions<T>(x: T): T {
  if (Array.isArray(x)) return x.map(withoutPositions) as T;
  if (x === null || typeof x !== "object" || Object.getPrototypeOf(x) !== Object.prototype) return x;
  const isNode = typeof (x as { kind?: unknown }).kind === "string";
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) if (!(isNode && k === "pos")) Object.defineProperty(out, k, { value: withoutPositions(v), enumerable: true, writable: true, configurable: true });
  return out as T;
}

/** Every stored entry as [level/tag/name, stored form], sorted: what a node holds, whatever the maps' order. */
export function catalogSnapshot(c: Catalog): [string, unknown][] {
  const out: [string, unknown][] = [];
  function walk(holder: object): void {
    for (const m of Object.values(holder)) {
      if (!(m instanceof DefMap)) continue;
      for (const [name, v] of m) {
        out.push([[m.at.ns, m.at.db, m.at.tb, m.tag, name].join("/"), withoutPositions(storedForm(m.tag, v))]);
        if (m.tag === "ns" || m.tag === "db" || m.tag === "tb") walk(v as object);
      }
    }
  }
  walk(c);
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
