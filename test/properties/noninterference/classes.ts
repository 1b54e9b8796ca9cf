// The bypass classes of issue #9 the attack generator aims at; a class listed as open is left out of the generator.

export const ISSUE_CLASSES = {
  "protected-vars": "#9.1 client-set $auth / $session / $token / $access / $scope (query vars, LET, RPC let, FOR, closure params)",
  "document-vars": "#9.2 client-set $this / $value / $input / $parent / $before / $after / $event",
  pushdown: "#9.3 index pushdown evaluating the WHERE operand with permissions off",
  "data-clauses": "#9.4 SET / MERGE / CONTENT / RETURN evaluated on records the update permission denies",
  "insert-existing": "#9.5 INSERT of an existing id returning or revealing the record",
  "array-fields": "#9.6 DEFINE FIELD a[*].b permissions ignored",
  "graph-cond": "#9.7 ->(edge WHERE cond) evaluated before the edge's select permission",
  "use-other": "#9.9 record users USE-ing another namespace / database",
  "param-shadow": "(pentest F3) a client variable (query vars, LET, RPC let, signup field) shadowing a DEFINE PARAM that PERMISSIONS or SIGNUP read",
  "index-error": "(pentest F2) a UNIQUE index clash names the conflicting record even when the client may not select it",
  "field-update": "(not in the issue) a record user setting a field of its own record whose update permission is NONE (admin), to pass `$auth.admin = true` rules",
  "hidden-index": "(attack pass 3, A2) a WHERE on a field the client may not select answered from an index over the stored value: a range binary-searches it, and the index orders and windows the rows",
  "field-errors": "(attack pass 3, A9) field TYPE / ASSERT / VALUE errors on a value the client may not select print it (a hidden field's definition tightened after data exists), a READONLY hidden field confirms a guess, and an event's errors print what it read with the owner's rights",
  "v1-projections": "(this property, = pentest F1) compat 1 projections (`SELECT ssn AS x`, `SELECT VALUE <int> ssn`) reading fields their select permission hides, as SurrealDB 1.5.4 does",
} as const;

export type IssueClass = keyof typeof ISSUE_CLASSES;
