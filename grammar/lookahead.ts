// Parser: lookahead decisions as tables indexed by token type — chevrotain's LL(k) strategy (and its validations),
// the same choices for less work: chevrotain's functions scan every path of every alternative for an LL(2) choice or
// a token category, and a choice with a GATE maps its alternatives to a fresh array on every call.
import { getLookaheadPaths, LLkLookaheadStrategy, type ILookaheadStrategy, type IOrAlt, type TokenType } from "chevrotain";

/** What a decision reads: the next tokens (chevrotain pads the input with EOF tokens for the lookahead). */
type Reader = { LA_FAST(howMuch: number): { tokenTypeIdx: number } };
type AltsDecision = (this: Reader, alts?: readonly IOrAlt<unknown>[]) => number | undefined;
type OptionalDecision = (this: Reader) => boolean;

/** A lookahead path that may match: its alternative, and the second tokens it needs (undefined: any). */
interface Candidate {
  readonly alt: number;
  readonly second: Uint8Array | undefined;
}

/**
 * The candidates of each first token, in chevrotain's order (alternatives in order, each one's paths in order): what
 * decides a choice. `undefined` when a path is longer than two tokens (chevrotain's own function is kept then).
 */
function candidates(alts: TokenType[][][], size: number, gates: boolean): (readonly Candidate[] | undefined)[] | undefined {
  if (alts.some((paths) => paths.some((p) => p.length > 2))) return undefined;
  const matched = (t: TokenType): number[] => [t.tokenTypeIdx!, ...((t as { categoryMatches?: number[] }).categoryMatches ?? [])];
  const set = (t: TokenType): Uint8Array => {
    const s = new Uint8Array(size);
    for (const b of matched(t)) s[b] = 1;
    return s;
  };
  const byFirst: Candidate[][] = Array.from({ length: size }, () => []);
  alts.forEach((paths, alt) => {
    for (const path of paths) {
      const c: Candidate = { alt, second: path.length === 2 ? set(path[1]) : undefined };
      // an empty path matches whatever comes
      for (const a of path.length === 0 ? byFirst.keys() : matched(path[0])) byFirst[a].push(c);
    }
  });
  // nothing after a candidate that needs no second token is ever reached (unless its GATE may fail)
  return byFirst.map((cs) => {
    const end = gates ? -1 : cs.findIndex((c) => c.second === undefined);
    return cs.length === 0 ? undefined : end < 0 ? cs : cs.slice(0, end + 1);
  });
}

/** The first candidate whose second token matches and whose alternative's GATE (if any) passes. */
function pick(this: Reader, cands: readonly Candidate[], alts: readonly IOrAlt<unknown>[] | undefined): number | undefined {
  let b = -1;
  // (an indexed loop: a for-of allocates an iterator result per step until the function is optimised)
  for (let i = 0; i < cands.length; i++) {
    const c = cands[i];
    if (c.second !== undefined) {
      if (b < 0) b = this.LA_FAST(2).tokenTypeIdx;
      if (c.second[b] !== 1) continue;
    }
    const gate = alts?.[c.alt].GATE;
    if (gate === undefined || gate.call(this) === true) return c.alt;
  }
  return undefined;
}

/** Chevrotain's LL(k) lookahead strategy with its decisions made from per-token candidate lists over `vocabulary`. */
export class TableLookahead extends LLkLookaheadStrategy {
  private readonly size: number;

  constructor(maxLookahead: number, vocabulary: readonly TokenType[]) {
    super({ maxLookahead });
    this.size = 1 + Math.max(...vocabulary.map((t) => t.tokenTypeIdx ?? 0));
  }

  override buildLookaheadForAlternation(options: Parameters<ILookaheadStrategy["buildLookaheadForAlternation"]>[0]): AltsDecision {
    const paths = getLookaheadPaths({ occurrence: options.prodOccurrence, rule: options.rule, prodType: "Alternation", maxLookahead: options.maxLookahead });
    const byFirst = options.dynamicTokensEnabled ? undefined : candidates(paths, this.size, options.hasPredicates);
    if (byFirst === undefined) return super.buildLookaheadForAlternation(options) as AltsDecision;
    // without GATEs, a first token that one candidate decides is a table cell
    const decided = byFirst.map((cs) => (cs?.length === 1 && cs[0].second === undefined ? cs[0].alt : undefined));
    const gates = options.hasPredicates;
    return function (this: Reader, alts) {
      const a = this.LA_FAST(1).tokenTypeIdx;
      if (!gates) {
        const alt = decided[a];
        if (alt !== undefined) return alt;
      }
      const cs = byFirst[a];
      return cs === undefined ? undefined : pick.call(this, cs, gates ? alts : undefined);
    };
  }

  override buildLookaheadForOptional(options: Parameters<ILookaheadStrategy["buildLookaheadForOptional"]>[0]): OptionalDecision {
    const paths = getLookaheadPaths({ occurrence: options.prodOccurrence, rule: options.rule, prodType: options.prodType, maxLookahead: options.maxLookahead });
    // (paths[0]: the paths into the optional part; the others are those past it)
    const byFirst = options.dynamicTokensEnabled ? undefined : candidates([paths[0]], this.size, false);
    if (byFirst === undefined) return super.buildLookaheadForOptional(options) as OptionalDecision;
    const decided = byFirst.map((cs) => cs !== undefined && cs[cs.length - 1].second === undefined);
    return function (this: Reader) {
      const a = this.LA_FAST(1).tokenTypeIdx;
      if (decided[a]) return true;
      const cs = byFirst[a];
      return cs !== undefined && pick.call(this, cs, undefined) !== undefined;
    };
  }
}
