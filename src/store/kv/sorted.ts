// store/kv/: the ordered map (sorted-btree's B+ tree) the memory backend and the write buffer keep keys in.

import BTreeModule from "sorted-btree";

type SortedMapClass = typeof BTreeModule.default;
export type SortedMap<K, V> = BTreeModule.default<K, V>;
/** Node's ESM loader hands out the CommonJS exports object, bundlers (vitest) its default export: take either. */
export const SortedMap: SortedMapClass =
  (BTreeModule as { default?: SortedMapClass }).default ?? (BTreeModule as unknown as SortedMapClass);
