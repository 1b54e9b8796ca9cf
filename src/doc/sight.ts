// doc/: what an error raised while writing a record may name — judged with the client's rights (also inside an event),
// and only once an error is about to be raised (attack A9: field TYPE / ASSERT / VALUE errors printed hidden values).

import type { TableEntry } from "../store/catalog.js";
import type { ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { getPath, putPath } from "./paths.js";
import type { Path } from "./paths.js";
import { checkPermissionsQuick, checkPermissionsTable, hiddenFields } from "./permissions.js";

/** The client's sight of one record being written: the stored record (NONE for a new one) and the record as processed so far. */
export class WriteSight {
  readonly #client: DocEnv;
  readonly #all: boolean;

  constructor(
    writer: DocEnv,
    private readonly table: TableEntry,
    private readonly before: ValueObject | undefined,
  ) {
    this.#client = writer.clientView();
    // a client bypassing PERMISSIONS on reads sees all; so does one making a new record with its own rights (not an
    // event's): what it holds the client wrote, or computed from what it may select
    this.#all = !this.#client.permissionsApply(false) || (before === undefined && writer.permissionsApply(false));
  }

  /** True when every text keeps SurrealDB's words. */
  get all(): boolean {
    return this.#all;
  }

  /** May the client select the record, stored and as written? */
  async record(doc: ValueObject): Promise<boolean> {
    if (this.all) return true;
    return (await this.#each(doc, (d) => this.#selectable(d))).every(Boolean);
  }

  /** May the client select the record and every part of the value at `path` (judged on `docs`, by default stored and as written)? */
  async field(path: Path, docs: readonly (ValueObject | undefined)[]): Promise<boolean> {
    if (this.all) return true;
    for (const d of docs) {
      if (!d) continue;
      if (!(await this.#selectable(d))) return false;
      // a field found NONE is judged by its rule too: that it holds nothing is the client's to know only if it may select it
      const shape = getPath(d, path) === undefined ? putPath(d, path, null, this.#client.compat) : d;
      if ((await this.#hidden(d, shape)).some((h) => overlaps(h, path))) return false;
    }
    return true;
  }

  /** May the client select the whole record, stored and as written (nothing of it hidden)? */
  async whole(doc: ValueObject): Promise<boolean> {
    if (this.all) return true;
    const seen = await this.#each(doc, async (d) => (await this.#selectable(d)) && (await this.#hidden(d)).length === 0);
    return seen.every(Boolean);
  }

  /** Both records (the stored one when there is one), one after the other. */
  async #each(doc: ValueObject, judge: (d: ValueObject) => Promise<boolean>): Promise<boolean[]> {
    const out: boolean[] = [];
    for (const d of [this.before, doc]) if (d) out.push(await judge(d));
    return out;
  }

  /** The table's `select` rule, with the client's rights; a rule that fails to evaluate hides the record. */
  async #selectable(doc: ValueObject): Promise<boolean> {
    try {
      return checkPermissionsQuick(this.#client, this.table, "select", doc) && (await checkPermissionsTable(this.#client, this.table, "select", doc));
    } catch {
      return false;
    }
  }

  /** The paths the client's field `select` rules hide; a rule that fails to evaluate hides everything. */
  async #hidden(doc: ValueObject, shape: ValueObject = doc): Promise<Path[]> {
    try {
      return await hiddenFields(this.#client, this.table, doc, shape);
    } catch {
      return [[]];
    }
  }
}

/** Does one path lie within the other (a hidden `a.b` is part of the value at `a`, a hidden `a` holds `a.b`)? */
function overlaps(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
