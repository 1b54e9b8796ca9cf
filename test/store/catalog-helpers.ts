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

