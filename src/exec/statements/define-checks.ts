// exec/statements: 2.x checks of a DEFINE FIELD or DEFINE INDEX against the table's fields (define.ts calls them).

import type { DefineFieldStatement, DefineIndexStatement, IdiomPart, TypeKind } from "../../ast/nodes.js";
import { queryError } from "../../errors/index.js";
import { idiomText as catalogKey } from "../../store/catalog.js";
import type { TableEntry } from "../../store/catalog.js";
import { formatKind } from "../../value/index.js";
import { idiomText } from "../expressions/text.js";

/** May a value of `parent` hold `child` at `path` below it? (SurrealDB 2.x: object takes any field or `[*]`, arrays their elements.) */
export function allowsNested(parent: TypeKind, path: readonly IdiomPart[], child: TypeKind): boolean {
  const isAny = (t: TypeKind) => t.kind === "Basic" && t.name === "any";
  if (isAny(parent) || isAny(child)) return true;
  if (path.length > 0) {
    if (parent.kind === "Basic" && parent.name === "object") return path[0]!.kind === "Field" || path[0]!.kind === "All";
    if (parent.kind === "Either") return parent.types.every((t) => allowsNested(t, path, child));
    if (parent.kind === "Array" || parent.kind === "Set") {
      // `[*]` and `[0]` both name an element (2.6.0 checks `b[0]` against array<string>'s string, as `b[*]`)
      return (path[0]!.kind === "All" || path[0]!.kind === "Index") && allowsNested(parent.inner ?? { kind: "Basic", name: "any" }, path.slice(1), child);
    }
  }
  if (parent.kind === "Option") return allowsNested(parent.inner, path, child);
  // a literal type's own shape is not walked (lenient)
  if (parent.kind === "Literal") return true;
  return path.length === 0 && formatKind(parent) === formatKind(child);
}

/** 2.x: a typed field under a defined typed field must fit its type ("Cannot set field … as it mismatched with field …"). */
export function checkNestedKind(table: TableEntry, def: DefineFieldStatement): void {
  const child = def.type;
  if (child === undefined) return;
  const parts = def.name.parts;
  for (let i = 1; i < parts.length; i++) {
    const parent = table.fields.get(catalogKey({ kind: "Idiom", parts: parts.slice(0, i) }));
    if (parent?.type === undefined || allowsNested(parent.type, parts.slice(i), child)) continue;
    throw queryError("MismatchedFieldTypes", idiomText(def.name, 2), formatKind(child), idiomText(parent.name, 2), formatKind(parent.type));
  }
}

/** 2.x: on a SCHEMAFULL table each indexed column's first field must be defined ("The field 'x' does not exist"). */
export function checkIndexFields(table: TableEntry, def: DefineIndexStatement): void {
  if (!table.def.schemafull) return;
  for (const col of def.fields) {
    const first = col.parts[0];
    if (first?.kind !== "Field" || table.fields.has(first.name)) continue;
    throw queryError("FdNotFound", idiomText({ kind: "Idiom", parts: [first] }, 2));
  }
}
