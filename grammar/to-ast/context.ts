// CST → AST, shared by the topic files: the builder's context (source text, errors, positions, token values) and CST
// accessors (a node's children by key; the parser tracks no node locations, so positions come from first tokens).
import type { CstElement, CstNode, IToken } from "chevrotain";
import type * as A from "../../src/ast/nodes.js";
import { DURATION_MAX } from "../../src/value/duration.js";
import { Duration, type Decimal } from "../../src/value/types.js";
import { parseErrorAtToken } from "../errors.js";
import { durationFromText, InvalidNumber, numberFromText, unquote, unquoteIdent } from "../literals.js";

export type Node = CstNode;

/** A node with (maybe) a `K` child list of `V`: what a clause builder takes from any statement that has the clause. */
export type With<K extends string, V> = { children: { [P in K]?: V[] } };

/**
 * The list under `key` in children `C`: typed for a node of grammar/cst.ts (a misspelled key does not compile),
 * nodes or tokens as asked for an untyped CstNode.
 */
type List<C, K extends keyof C, Untyped> = string extends keyof C ? Untyped : NonNullable<C[K]>;
type Item<C, K extends keyof C, Untyped> = List<C, K, Untyped[]> extends readonly (infer E)[] ? E : never;

export function isToken(e: CstElement): e is IToken {
  return (e as IToken).image !== undefined;
}

/** What a node holds under a key: its one child itself, or from a second child on an array (grammar/parser.ts addChild). */
type Held = CstElement | CstElement[] | undefined;
const held = (n: { children: object }, key: string): Held => (n.children as Record<string, Held>)[key];
const NONE: readonly CstElement[] = Object.freeze([]);
/** The children held under a key as a list. */
const listOf = (h: Held): readonly CstElement[] => (h === undefined ? NONE : Array.isArray(h) ? h : [h]);
/** The `i`th child held under a key. */
const childAt = (h: Held, i: number): CstElement | undefined => (h === undefined ? undefined : Array.isArray(h) ? h[i] : i === 0 ? h : undefined);

export function nodes<C extends object, K extends keyof C & string>(n: { children: C }, key: K): List<C, K, Node[]> {
  return listOf(held(n, key)) as List<C, K, Node[]>;
}
export function toks<C extends object, K extends keyof C & string>(n: { children: C }, key: K): List<C, K, IToken[]> {
  return listOf(held(n, key)) as List<C, K, IToken[]>;
}
export function node<C extends object, K extends keyof C & string>(n: { children: C }, key: K, i = 0): Item<C, K, Node> | undefined {
  return childAt(held(n, key), i) as Item<C, K, Node> | undefined;
}
export function tok<C extends object, K extends keyof C & string>(n: { children: C }, key: K, i = 0): Item<C, K, IToken> | undefined {
  return childAt(held(n, key), i) as Item<C, K, IToken> | undefined;
}
export function has<C extends object>(n: { children: C }, key: keyof C & string): boolean {
  return held(n, key) !== undefined;
}
export function req<T>(v: T | undefined): T {
  if (v === undefined) throw new Error("internal: missing CST child");
  return v;
}

/** All tokens of a CST node in source order. */
export function tokensOf(n: Node, out: IToken[] = []): IToken[] {
  for (const h of Object.values(n.children) as Held[]) for (const e of listOf(h)) isToken(e) ? out.push(e) : tokensOf(e, out);
  return out;
}
/**
 * Where a node starts (the parser tracks no node locations): children are keyed in the order they were first added,
 * so the first key's first element is the first thing consumed; an empty node on that path falls back to the
 * smallest token offset. `undefined` for a node that consumed nothing.
 */
export function startOffsetOf(n: Node): number | undefined {
  let cur = n;
  for (;;) {
    let first: CstElement | undefined;
    for (const key in cur.children) {
      first = childAt(held(cur, key), 0);
      break;
    }
    if (first === undefined) break;
    if (isToken(first)) return first.startOffset;
    cur = first;
  }
  return firstToken(n)?.startOffset;
}
/** The one child of a node whose rule is a choice, typed by its key (`switch (one.key)` narrows `one.node`). */
export type OneOf<Ch> = { [K in keyof Ch]-?: { key: K; node: NonNullable<Ch[K]> extends readonly (infer E)[] ? E : never } }[keyof Ch];

/** The first child of `n` (skipping the `except` key) with its key. */
export function oneOf<Ch extends object, X extends keyof Ch & string = never>(n: { children: Ch }, except?: X): OneOf<Omit<Ch, X>> {
  const children = n.children as unknown as Node["children"];
  for (const key in children) if (key !== except) return { key, node: childAt(held(n, key), 0) } as unknown as OneOf<Omit<Ch, X>>;
  throw new Error("internal: empty CST node");
}

/** The key of a node's first child (children are keyed in the order they were first added). */
export function firstKey(n: Node): string | undefined {
  for (const key in n.children) return key;
  return undefined;
}

export function firstToken(n: Node | IToken): IToken | undefined {
  if (isToken(n)) return n;
  let best: IToken | undefined;
  for (const h of Object.values(n.children) as Held[]) {
    for (const e of listOf(h)) {
      const t = isToken(e) ? e : firstToken(e);
      if (t !== undefined && (best === undefined || t.startOffset < best.startOffset)) best = t;
    }
  }
  return best;
}

/** Whether `offset` lies on line `l` (0-based) of `lineStarts`. */
function onLine(lineStarts: number[], l: number, offset: number): boolean {
  return l < lineStarts.length && lineStarts[l] <= offset && (l + 1 === lineStarts.length || offset < lineStarts[l + 1]);
}

/** Is a run of digits past u64::MAX? (the length first: a hostile run of a million digits costs no BigInt) */
function pastU64(digits: string): boolean {
  const d = digits.replace(/^0+/, "");
  return d.length > 20 || (d.length === 20 && BigInt(d) > 0xffff_ffff_ffff_ffffn);
}

/**
 * A duration literal's value, or 2.6.0's words refusing it: a digit run past u64, else a total past Duration::MAX.
 * 1.5.4 refuses only a part past the maximum (its expressions read such a word as a field: expressions.ts) and
 * saturates the parts' sum.
 */
export function durationOrRefusal(image: string, compat: 1 | 2): A.Duration | string {
  if (compat === 1) return durationV1(image);
  if ((image.match(/\d+/g) ?? []).some(pastU64)) return "Invalid token, failed to parse duration digits: number too large to fit in target type";
  return durationFromText(image) ?? "Invalid duration, value overflowed maximum allowed value";
}

function durationV1(image: string): A.Duration | string {
  let total = 0n;
  for (const part of image.match(/\d+\D+/g) ?? []) {
    const d = durationOrRefusal(part, 2);
    if (typeof d === "string") return d;
    total += d.nanos;
  }
  return total > DURATION_MAX.nanos ? DURATION_MAX : new Duration(total);
}

/** One build: the text the CST came from (for errors and positions), and the SurrealDB version it is read as. */
export class Ctx {
  /** Compat 1: string literals read again as a record id that did not parse (literals.ts, V1_ID_FAILURES). */
  v1IdFailures = 0;

  constructor(
    readonly text: string,
    readonly compat: 1 | 2 = 2,
  ) {}

  fail(token: IToken | undefined, message: string, expected: readonly string[] = []): never {
    throw parseErrorAtToken(this.text, token, message, expected);
  }

  /** 2.x syntax that SurrealDB 1.5.4 does not parse: under compat 1, a parse error at `token` (1.5.4 refuses it there). */
  v2Only(token: IToken | undefined, what: string, instead = ""): void {
    if (this.compat === 1) this.fail(token, `${what} is SurrealDB 2.x syntax, not available with --compat 1${instead && ` (1.x: ${instead})`}`);
  }

  /** Offsets where each line starts (built on first use) for offset → line/column. */
  private lineStarts: number[] | undefined;
  /** The line of the last position asked for (positions mostly come in source order). */
  private line = 0;

  pos(n: Node | IToken | undefined): A.Pos | undefined {
    if (n === undefined) return undefined;
    const offset = isToken(n) ? n.startOffset : startOffsetOf(n);
    if (offset === undefined || Number.isNaN(offset)) return undefined;
    if (this.lineStarts === undefined) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    const ls = this.lineStarts;
    // the last line asked for, the next one, else a binary search
    let lo = onLine(ls, this.line, offset) ? this.line : onLine(ls, this.line + 1, offset) ? this.line + 1 : -1;
    if (lo < 0) {
      lo = 0;
      let hi = ls.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ls[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
    }
    this.line = lo;
    return { line: lo + 1, column: offset - ls[lo] + 1, offset };
  }

  nameText(t: IToken): string {
    const name = t.tokenType.name;
    if (name === "BacktickIdent" || name === "AngleIdent") return unquoteIdent(t.image);
    return t.image;
  }

  string(t: IToken): string {
    try {
      return unquote(t.image);
    } catch {
      this.fail(t, "Invalid escape character in strand");
    }
  }

  number(t: IToken): bigint | number | Decimal {
    try {
      return numberFromText(t.image);
    } catch (e) {
      if (!(e instanceof InvalidNumber)) throw e;
      this.fail(t, e.message);
    }
  }

  duration(t: IToken): A.Duration {
    const d = durationOrRefusal(t.image, this.compat);
    if (typeof d === "string") this.fail(t, d);
    return d;
  }
}
