// iam/matrix: the access matrix's shape (also the documented `surql-auth matrix --json` output, version 1).

import type { Role } from "../../ast/nodes.js";

export const MATRIX_VERSION = 1;

export type Action = "select" | "create" | "update" | "delete";
export const ACTIONS: readonly Action[] = ["select", "create", "update", "delete"];

/** Who asks: a system role at a level, a record access (2.x) / scope (1.x) user, or a guest. */
export type Identity =
  | {
      readonly id: string;
      readonly kind: "system";
      readonly level: "root" | "namespace" | "database";
      readonly role: Role;
      /** Users defined at that level whose strongest role this is. */
      readonly users: readonly string[];
    }
  | { readonly id: string; readonly kind: "record"; readonly access: string }
  | { readonly id: "anonymous"; readonly kind: "anonymous" };

/** One condition a cell depends on: the rule's WHERE clause as INFO prints it, and whose rule it is. */
export interface Condition {
  /** `table` for the table's rule, else the field's path (`password`, `address.city`). */
  readonly on: string;
  readonly text: string;
}

/**
 * What one identity may do: `always`, `never`, `conditional` (every condition must hold), or `n/a` (a field has no
 * delete rule). `decided`: a WHERE rule that was decided statically for this identity (e.g. `$access = 'admin'` for
 * another access).
 */
export interface Cell {
  readonly decision: "always" | "never" | "conditional" | "n/a";
  readonly conditions: readonly Condition[];
  readonly decided?: true;
}

/** Action → cell; identity id → those. */
export type Cells = Readonly<Record<string, Readonly<Record<Action, Cell>>>>;

export interface FieldRow {
  readonly name: string;
  /** The field's own rules as INFO prints them (`FULL`, `NONE`, `WHERE …`); delete is always `n/a`. */
  readonly rules: Readonly<Record<Action, string>>;
  /** Effective: the table's rule, the parent fields' rules and the field's own, all together. */
  readonly cells: Cells;
}

export interface TableRow {
  readonly name: string;
  readonly schemafull: boolean;
  readonly rules: Readonly<Record<Action, string>>;
  readonly cells: Cells;
  readonly fields: readonly FieldRow[];
}

export type FlagRule = "full-table" | "secret-field" | "select-ignores-identity" | "undefined-field" | "signin-unreadable";
export type Severity = "high" | "medium" | "low";

export interface Flag {
  readonly rule: FlagRule;
  readonly severity: Severity;
  readonly ns: string;
  readonly db: string;
  readonly table?: string;
  readonly field?: string;
  readonly access?: string;
  readonly why: string;
}

export interface DatabaseMatrix {
  readonly ns: string;
  readonly db: string;
  readonly identities: readonly Identity[];
  /** Facts about identities the matrix does not show as columns (JWT accesses, guests). */
  readonly notes: readonly string[];
  readonly tables: readonly TableRow[];
}

export interface Matrix {
  readonly version: typeof MATRIX_VERSION;
  readonly compat: 1 | 2;
  readonly databases: readonly DatabaseMatrix[];
  readonly flags: readonly Flag[];
}
