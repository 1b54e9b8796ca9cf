// iam/matrix: the access matrix of a catalog — per database, each identity kind × action for every table and field,
// and the risky rules (pure: the catalog in, plain data out; rendering lives in cli/matrix*).

import type { Catalog } from "../../store/catalog.js";
import { tableRow } from "./cells.js";
import { flagsOf } from "./flags.js";
import { factsOf, identitiesOf } from "./identities.js";
import { MATRIX_VERSION, type DatabaseMatrix, type Flag, type Identity, type Matrix } from "./types.js";

export interface MatrixOptions {
  readonly compat: 1 | 2;
  /** Only this namespace / database. */
  readonly ns?: string | undefined;
  readonly db?: string | undefined;
}

/** Notes on who else reaches the database: token accesses act as system users; guests need --allow-guests. */
function notesOf(tokenAccesses: readonly string[]): string[] {
  const notes = tokenAccesses.map((a) => `tokens of access ${a} act as system users of this database with the roles of their RL claim (default VIEWER): see the VIEWER / EDITOR / OWNER columns`);
  return [...notes, "guest: anonymous sessions, only where the server allows guests (--allow-guests); otherwise they may not query at all"];
}

export function accessMatrix(catalog: Catalog, opts: MatrixOptions): Matrix {
  const databases: DatabaseMatrix[] = [];
  const flags: Flag[] = [];
  for (const [ns, nsEntry] of [...catalog.namespaces].sort(([a], [b]) => a.localeCompare(b))) {
    if (opts.ns !== undefined && ns !== opts.ns) continue;
    for (const [db, entry] of [...nsEntry.databases].sort(([a], [b]) => a.localeCompare(b))) {
      if (opts.db !== undefined && db !== opts.db) continue;
      // 1. who can query this database, and what their clauses know of them
      const { identities, tokenAccesses } = identitiesOf(catalog, opts.compat, ns, db);
      const facts = (who: Identity, ownRecord = false) => factsOf(who, opts.compat, tokenAccesses.length > 0, ownRecord);
      // 2. the cells of every table and field
      const tables = [...entry.tables.values()].map((t) => tableRow(t, opts.compat, { identities, facts }));
      const matrix: DatabaseMatrix = { ns, db, identities, notes: notesOf(tokenAccesses), tables };
      databases.push(matrix);
      // 3. the risky rules
      flags.push(...flagsOf({ matrix, entry, compat: opts.compat, facts }));
    }
  }
  return { version: MATRIX_VERSION, compat: opts.compat, databases, flags };
}
