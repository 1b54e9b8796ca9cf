// test/store: walking a catalog's stored entries.

import { DefMap, storedForm, type Catalog } from "../../src/store/catalog.js";
import type { Tag } from "../../src/store/catalog-keys.js";

/** Every stored entry of a catalog: its map's level, its tag, its path (tag/name/…/tag/name) and what is stored. */
function* walkCatalog(c: Catalog): Generator<{ at: DefMap<unknown>["at"]; tag: Tag; name: string; path: string; stored: unknown }> {
  function* walk(holder: object, path: string[]): ReturnType<typeof walkCatalog> {
    for (const m of Object.values(holder)) {
      if (!(m instanceof DefMap)) continue;
      for (const [name, v] of m as DefMap<unknown>) {
        const at = [...path, m.tag, name];
        yield { at: m.at, tag: m.tag, name, path: at.join("/"), stored: storedForm(m.tag, v) };
        if (m.tag === "ns" || m.tag === "db" || m.tag === "tb") yield* walk(v as object, at);
      }
    }
  }
  yield* walk(c, []);
}

/** Every stored entry of a catalog with its tag. */
export function* catalogEntries(c: Catalog): Generator<[Tag, unknown]> {
  for (const e of walkCatalog(c)) yield [e.tag, e.stored];
}

/** Every stored entry as [tag/name/…/tag/name, stored form], in the maps' order. */
export function* catalogPaths(c: Catalog): Generator<[string, unknown]> {
  for (const e of walkCatalog(c)) yield [e.path, e.stored];
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
  for (const { at, tag, name, stored } of walkCatalog(c)) out.push([[at.ns, at.db, at.tb, tag, name].join("/"), withoutPositions(stored)]);
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
