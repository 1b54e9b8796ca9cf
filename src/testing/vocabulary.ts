// The attacker's vocabulary, shared by checkPermissions (a user's schema) and the project's own noninterference
// property (test/properties/noninterference/): the step kinds a record user can send (a query with client variables,
// an RPC `let`, any other RPC method), the "leak wrappers" that turn a value evaluated with permissions off into an
// error text quoting it, and the variable names a client must not set together with the forged values that would
// open another user's data.

import fc from "fast-check";
import type { Compat } from "../exec/session.js";

/** One thing the attacker sends. Every value is SurrealQL text (evaluated as root before it is sent). */
export type AttackStep<Tag extends string = string> =
  | { readonly kind: "query"; readonly tag: Tag; readonly sql: string; readonly vars: Readonly<Record<string, string>> }
  | { readonly kind: "let"; readonly tag: Tag; readonly name: string; readonly value: string }
  /** Any other RPC method; `params` is a SurrealQL array. */
  | { readonly kind: "rpc"; readonly tag: Tag; readonly method: string; readonly params: string };

/** Who is who, as SurrealQL: the two record users' ids and the database they live in. */
export interface Parties {
  readonly victim: string;
  readonly attacker: string;
  readonly ns: string;
  readonly db: string;
}

export const pick = <T>(xs: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...xs);

/** A value, possibly wrapped so that evaluating it quotes it in an error (a cast, or a function of the wrong type). */
const WRAPPERS: readonly { weight: number; wrap: (x: string) => string }[] = [
  { weight: 2, wrap: (x) => x },
  { weight: 2, wrap: (x) => `<int> ${x}` },
  { weight: 3, wrap: (x) => `math::sqrt(${x})` },
  { weight: 1, wrap: (x) => `array::len(${x})` },
  { weight: 1, wrap: (x) => `[${x}]` },
  { weight: 1, wrap: (x) => `<string> ${x}` },
];
export const leak = (x: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(fc.oneof(...WRAPPERS.map((w) => ({ weight: w.weight, arbitrary: fc.constant(w.wrap) }))), x).map(([w, v]) => w(v));

/** Variable names a client must not be able to set, or (param-shadow: the DEFINE PARAMs the schema reads) shadow. */
export type NamedClass = "protected-vars" | "document-vars" | "param-shadow";
export const NAMED_CLASSES: readonly NamedClass[] = ["protected-vars", "document-vars", "param-shadow"];
const SYSTEM_NAMES = {
  "protected-vars": ["auth", "session", "token", "access", "scope"],
  "document-vars": ["this", "value", "input", "parent", "before", "after", "event"],
} as const;

/** The protected names by class, with the schema's DEFINE PARAM names as the param-shadow class. */
export function protectedNames(params: readonly string[]): Record<NamedClass, readonly string[]> {
  return { ...SYSTEM_NAMES, "param-shadow": params };
}
export const classOfName = (names: Record<NamedClass, readonly string[]>, n: string): NamedClass => NAMED_CLASSES.find((c) => names[c].includes(n))!;

/** Forged values for a protected name: what would satisfy a rule guarding the victim's data. */
export function forged(name: string, p: Parties): readonly string[] {
  const doc = `{ id: ${p.attacker}, owner: ${p.attacker}, in: ${p.attacker}, password: 'x' }`;
  switch (name) {
    case "auth":
      return [p.victim, `{ id: ${p.victim} }`];
    case "session":
      return [`{ ns: '${p.ns}', db: '${p.db}', ac: 'admin', sc: 'admin', rd: ${p.victim}, sd: ${p.victim} }`];
    case "token":
      return [`{ ID: '${p.victim}', admin: true, NS: '${p.ns}', DB: '${p.db}' }`];
    case "access":
    case "scope":
      return ["'admin'"];
    case "value":
      return ["'public'"];
    case "this":
      return [doc, `{ id: ${p.victim}, owner: ${p.victim}, in: ${p.victim} }`];
    case "event":
      return ["'CREATE'"];
    case "input":
    case "parent":
    case "before":
    case "after":
      return [doc];
    default:
      // a DEFINE PARAM the rules read
      return ["true", p.victim];
  }
}

/** One kind of statement the attacker sends. `bare`: sent without client variables (the attack needs none). */
export interface Arm<Tag extends string> {
  readonly tag: Tag;
  readonly weight: number;
  readonly sql: fc.Arbitrary<string>;
  readonly bare?: true;
}

/**
 * Protected names set by the client inside the query: LET, FOR and closure parameters, each followed by a read
 * (`readStatements`) or a value (`reads`) that would carry the victim's data if the forged value were believed.
 */
export function protectedNameArms(cls: NamedClass, names: readonly string[], compat: Compat, p: Parties, reads: readonly string[], readStatements: readonly string[]): Arm<NamedClass>[] {
  if (names.length === 0) return [];
  const named = pick(names).chain((n) => pick(forged(n, p)).map((v) => [n, v] as const));
  return [
    { tag: cls, weight: 2, sql: fc.tuple(named, pick(readStatements)).map(([[n, v], r]) => `LET $${n} = ${v}; ${r}`) },
    { tag: cls, weight: 2, sql: fc.tuple(named, pick(reads)).map(([[n, v], r]) => `FOR $${n} IN [${v}] { THROW <string> ${r} }`) },
    { tag: cls, weight: compat === 2 ? 2 : 0, sql: fc.tuple(named, pick(reads)).map(([[n, v], r]) => `RETURN array::map([${v}], |$${n}| ${r})`) },
  ];
}

/** An RPC `let` of a protected name: it sets a session variable for the steps after it. */
export function letStep<Tag extends string>(names: readonly string[], classOf: (name: string) => Tag, p: Parties): fc.Arbitrary<AttackStep<Tag>> | undefined {
  if (names.length === 0) return undefined;
  return pick(names).chain((name) => pick(forged(name, p)).map((value): AttackStep<Tag> => ({ kind: "let", tag: classOf(name), name, value })));
}

/**
 * A query step from the arms: a quarter of them carry client variables with protected names (most of those refuse
 * the whole query, which then tests nothing else); some run inside a transaction (committed or cancelled), or a LET.
 * A `base` step with variables is tagged with the class of its first variable.
 */
export function queryStep<Tag extends string>(arms: readonly Arm<Tag>[], base: Tag, varNames: readonly string[], classOf: (name: string) => Tag, p: Parties): fc.Arbitrary<AttackStep<Tag>> {
  const live = arms.filter((a) => a.weight > 0);
  const vars: fc.Arbitrary<Record<string, string>> =
    varNames.length === 0
      ? fc.constant({})
      : fc
          .oneof(
            { weight: 3, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: fc.uniqueArray(pick(varNames), { minLength: 1, maxLength: 3 }).chain((names) => fc.tuple(...names.map((n) => pick(forged(n, p)).map((v) => [n, v] as const)))) },
          )
          .map((kv) => Object.fromEntries(kv ?? []));
  const statement = fc.oneof(...live.map((a) => ({ weight: a.weight, arbitrary: a.sql.map((sql) => [a.tag, sql, a.bare ?? false] as const) })));
  const wrapped = fc
    .tuple(statement, fc.constantFrom("", "", "", "", "BEGIN; | ; COMMIT", "BEGIN; | ; CANCEL", "LET $x = (|); RETURN $x"))
    .map(([[tag, sql, bare], w]) => [tag, w && !sql.includes(";") && !/^(LET|USE|FOR|DEFINE|REMOVE|INFO|IF|THROW)/.test(sql) ? w.replace("|", () => sql) : sql, bare] as const);
  return fc.tuple(wrapped, vars).map(([[tag, sql, bare], given]): AttackStep<Tag> => {
    const v = bare ? {} : given;
    const names = Object.keys(v);
    return { kind: "query", tag: tag === base && names.length ? classOf(names[0]!) : tag, sql, vars: v };
  });
}

/** The step as SurrealQL for a reproduction (vars and RPC methods as comments, an RPC let as the equivalent LET). */
export function stepText(s: AttackStep): string {
  if (s.kind === "let") return `-- RPC let ${s.name} = ${s.value}   [${s.tag}]\nLET $${s.name} = ${s.value};`;
  if (s.kind === "rpc") return `-- RPC ${s.method} ${s.params}   [${s.tag}]`;
  const vars = Object.entries(s.vars);
  const head = vars.length ? `-- query vars: { ${vars.map(([k, v]) => `${k}: ${v}`).join(", ")} }\n` : "";
  return `${head}${s.sql};   -- [${s.tag}]`;
}
