// fast-check arbitraries for records of a defined table: each field's value follows its TYPE (nested `a.b` and
// array-element `a[*].b` definitions build the objects and arrays around them) and its ASSERT, either from a
// recognised pattern (below) or, with `tableRecords`, by keeping only the sampled values the engine's own ASSERT
// accepts. Fields with a VALUE clause, and `id` / `in` / `out`, are left to the engine.
//
// Recognised ASSERT conjuncts (joined with AND; `$value` as written or as INFO prints it):
//   string::is::email / alphanum / alpha / numeric / ascii ($value)   string::len($value) or $value.len() <, <=, >, >= N
//   $value <, <=, >, >= N                                             $value INSIDE / IN [literals], [literals] CONTAINS $value
//   $value != NONE / NULL / ''                                        $value IS NOT NONE

import fc from "fast-check";
import type { TypeKind } from "../ast/nodes.js";
import { printType } from "../ast/print.js";
import { parseExpr } from "../../grammar/index.js";
import { SurqlAuth } from "../index.js";
import type { Value, ValueObject } from "../value/types.js";
import { rootSession } from "./invariant.js";
import type { FieldShape, TableShape } from "./schema.js";
import { valueOfType, type ValueOptions } from "./values.js";

export interface RecordOptions extends ValueOptions {
  /** The string a string field holds (e.g. a marker to find again); a recognised ASSERT shapes it (an email around it). */
  readonly stringFor?: (path: string) => string;
}

/** What the recognised conjuncts of an ASSERT allow. */
interface Constraint {
  text?: "email" | "alphanum" | "alpha" | "numeric";
  minLen: number;
  maxLen: number;
  min: number;
  max: number;
  oneOf?: Value[];
}

const NUM = String.raw`(-?\d+(?:\.\d+)?)(?:f|dec)?`;
const V = String.raw`\$value`;
const CONJUNCTS: readonly [RegExp, (m: RegExpExecArray, c: Constraint) => void][] = [
  [new RegExp(`^string::is::(email|alphanum|alpha|numeric|ascii)\\(${V}\\)$`), (m, c) => void (m[1] !== "ascii" && (c.text = m[1] as Constraint["text"]))],
  [new RegExp(`^(?:string::len\\(${V}\\)|${V}\\.len\\(\\)) (<|<=|>|>=) ${NUM}$`), (m, c) => bound(c, "Len", m[1]!, Number(m[2]))],
  [new RegExp(`^${V} (<|<=|>|>=) ${NUM}$`), (m, c) => bound(c, "", m[1]!, Number(m[2]))],
  [new RegExp(`^${V} (?:INSIDE|IN) (\\[.*\\])$`), (m, c) => void (c.oneOf = literals(m[1]!))],
  [new RegExp(`^(\\[.*\\]) CONTAINS ${V}$`), (m, c) => void (c.oneOf = literals(m[1]!))],
  [new RegExp(`^${V} (?:!= (?:NONE|NULL)|IS NOT (?:NONE|NULL))$`), () => undefined],
  [new RegExp(`^${V} != ''$`), (_, c) => void (c.minLen = Math.max(c.minLen, 1))],
];

function bound(c: Constraint, what: "" | "Len", op: string, n: number): void {
  const [lo, hi] = what === "Len" ? (["minLen", "maxLen"] as const) : (["min", "max"] as const);
  const step = what === "Len" || Number.isInteger(n) ? 1 : 1e-6;
  if (op === ">") c[lo] = Math.max(c[lo], n + step);
  else if (op === ">=") c[lo] = Math.max(c[lo], n);
  else if (op === "<") c[hi] = Math.min(c[hi], n - step);
  else c[hi] = Math.min(c[hi], n);
}

/** The values of an array of literals, or undefined if an item is not one. */
function literals(text: string): Value[] | undefined {
  const e = parseExpr(text);
  if (e.kind !== "Array" || !e.items.every((i) => i.kind === "Literal")) return undefined;
  return e.items.map((i) => (i.kind === "Literal" ? i.value : undefined));
}

/** The constraint of an ASSERT, or undefined if some conjunct is not recognised. */
function recognise(assert: string | undefined): Constraint | undefined {
  const c: Constraint = { minLen: 0, maxLen: Infinity, min: -Infinity, max: Infinity };
  for (const part of assert === undefined ? [] : assert.split(" AND ")) {
    const hit = CONJUNCTS.map(([re, apply]) => [re.exec(part.trim()), apply] as const).find(([m]) => m);
    if (!hit) return undefined;
    hit[1](hit[0]!, c);
    if ("oneOf" in c && c.oneOf === undefined) return undefined;
  }
  return c;
}

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const text = (chars: string, min: number, max: number): fc.Arbitrary<string> => fc.string({ minLength: min, maxLength: max, unit: fc.constantFrom(...chars) });

/** A string meeting the constraint: the given one (shaped) where it fits, else generated. */
function constrainedString(c: Constraint, given: string | undefined): fc.Arbitrary<string> {
  const min = Math.max(c.minLen, 8);
  const max = Math.max(min, Math.min(c.maxLen, 24));
  const fits = (s: string): boolean => s.length >= c.minLen && s.length <= c.maxLen;
  if (c.text === "email") {
    const s = given === undefined ? undefined : `${given}@example.com`;
    return s && fits(s) ? fc.constant(s) : text("abcdefghijklmnopqrstuvwxyz", 1, Math.max(1, Math.min(16, c.maxLen - 12))).map((l) => `${l}@example.com`);
  }
  if (c.text === "numeric") return text("0123456789", min, max);
  if (c.text === "alpha") return text(ALNUM.slice(0, 52), min, max);
  if (c.text === "alphanum") return text(ALNUM, min, max);
  return given !== undefined && fits(given) ? fc.constant(given) : text(`${ALNUM} -_.`, Math.min(min, max), max);
}

const within = (c: Constraint): { min: number; max: number } => ({ min: Math.max(c.min, -1e6), max: Math.min(c.max, 1e6) });

/** A value of the field's type meeting a recognised constraint. */
function constrained(type: TypeKind | undefined, c: Constraint, given: string | undefined, o: ValueOptions): fc.Arbitrary<Value> {
  if (c.oneOf) return fc.constantFrom(...c.oneOf);
  const t = type?.kind === "Option" ? type.inner : type;
  const name = t?.kind === "Basic" ? t.name : undefined;
  const { min, max } = within(c);
  if (name === "int" || ((name === "number" || t === undefined) && (c.min > -Infinity || c.max < Infinity))) {
    return fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.max(Math.ceil(min), Math.floor(max))) });
  }
  if (name === "float" || name === "number") return fc.integer({ min: Math.ceil(min * 100), max: Math.max(Math.ceil(min * 100), Math.floor(max * 100)) }).map((n) => n / 100);
  if (name === "string" || (t === undefined && (c.text || c.minLen > 0 || c.maxLen < Infinity))) return constrainedString(c, given);
  return valueOfType(type ?? { kind: "Basic", name: "any" }, given === undefined ? o : { ...o, strings: constrainedString(c, given) });
}

/** A field's values: from its TYPE and recognised ASSERT (`exact`), or from its TYPE alone for the engine to filter. */
export function fieldValues(f: FieldShape, o: RecordOptions = {}): { readonly arbitrary: fc.Arbitrary<Value>; readonly exact: boolean } {
  const given = o.stringFor?.(f.path);
  const c = recognise(f.assert);
  if (c) return { arbitrary: constrained(f.type, c, given, o), exact: true };
  return { arbitrary: valueOfType(f.type ?? { kind: "Basic", name: "any" }, given === undefined ? o : { ...o, strings: constrainedString(recognise(undefined)!, given) }), exact: false };
}

/** Path segments: `emails[*].addr` → emails, *, addr (an index counts as `*`). */
const segments = (path: string): string[] => path.replace(/\[(\*|\d+)\]/g, ".*").split(".").filter(Boolean);

interface Node {
  field?: FieldShape;
  readonly children: Map<string, Node>;
}

const ENGINE_FIELDS = new Set(["id", "in", "out"]);

/** The nested value of a node of the field tree: an array around `*` children, an object around named ones. */
function nodeValue(n: Node, values: (f: FieldShape) => fc.Arbitrary<Value>, o: ValueOptions): fc.Arbitrary<Value> {
  if (n.children.size === 0) return n.field ? values(n.field) : valueOfType({ kind: "Basic", name: "any" }, o);
  // an optional object or array whose nested fields are defined is generated anyway: the engine checks those on NONE too
  return n.children.has("*") ? fc.array(nodeValue(n.children.get("*")!, values, o), { minLength: 1, maxLength: 2 }) : objectOf(n, values, o);
}

function objectOf(n: Node, values: (f: FieldShape) => fc.Arbitrary<Value>, o: ValueOptions): fc.Arbitrary<ValueObject> {
  const keys = [...n.children].filter(([k, c]) => k !== "*" && !ENGINE_FIELDS.has(k) && !c.field?.computed);
  return fc.tuple(...keys.map(([, c]) => nodeValue(c, values, o))).map((vs) => Object.fromEntries(keys.map(([k], i) => [k, vs[i]]).filter(([, v]) => v !== undefined)) as ValueObject);
}

function tree(fields: readonly FieldShape[]): Node {
  const root: Node = { children: new Map() };
  for (const f of fields) {
    let n = root;
    for (const s of segments(f.path)) {
      if (!n.children.has(s)) n.children.set(s, { children: new Map() });
      n = n.children.get(s)!;
    }
    n.field = f;
  }
  return root;
}

/** Records of a table from its field definitions (TYPE and recognised ASSERTs only; see `tableRecords`). */
export function recordOf(table: TableShape, o: RecordOptions = {}, values: (f: FieldShape) => fc.Arbitrary<Value> = (f) => fieldValues(f, o).arbitrary): fc.Arbitrary<ValueObject> {
  if (table.fields.length === 0) return fc.record({ note: valueOfType({ kind: "Basic", name: "string" }, o.stringFor ? { ...o, strings: fc.constant(o.stringFor("note")) } : o) });
  return objectOf(tree(table.fields), values, o);
}

/**
 * Records of a table whose every field value passes its TYPE and ASSERT on the engine: for an ASSERT no pattern covers,
 * `samples` values of the field's type are tried on a scratch table with the same definition, and the field takes
 * its values from those the engine accepts (all of them if it accepts none: then the engine refuses such a record).
 */
export async function tableRecords(table: TableShape, o: RecordOptions & { readonly compat?: 1 | 2; readonly samples?: number; readonly seed?: number } = {}): Promise<fc.Arbitrary<ValueObject>> {
  const accepted = new Map<FieldShape, Value[]>();
  let db: SurqlAuth | undefined;
  for (const f of table.fields) {
    const { arbitrary, exact } = fieldValues(f, o);
    if (exact || f.computed) continue;
    db ??= await SurqlAuth.open({ compat: o.compat ?? 2 });
    accepted.set(f, await engineAccepts(db, f, fc.sample(arbitrary, { numRuns: o.samples ?? 200, ...(o.seed !== undefined ? { seed: o.seed } : {}) })));
  }
  return recordOf(table, o, (f) => {
    const ok = accepted.get(f);
    return ok?.length ? fc.constantFrom(...ok) : fieldValues(f, o).arbitrary;
  });
}

let probes = 0;

/** The candidates a scratch field with the same TYPE and ASSERT accepts. */
async function engineAccepts(db: SurqlAuth, f: FieldShape, candidates: readonly Value[]): Promise<Value[]> {
  const session = rootSession("testing", "probe");
  const probe = `probe_${++probes}`;
  await db.engine.execute(`DEFINE TABLE ${probe} SCHEMALESS; DEFINE FIELD v ON ${probe}${f.type ? ` TYPE ${printType(f.type)}` : ""}${f.assert ? ` ASSERT ${f.assert}` : ""};`, session);
  const ok: Value[] = [];
  for (const v of candidates) {
    const [r] = await db.engine.execute(`CREATE ${probe} SET v = $v RETURN NONE`, session, { v });
    if (r?.status === "OK") ok.push(v);
  }
  return ok;
}
