// grammar/lookahead.ts: table decisions choose what chevrotain's LL(k) strategy chooses (categories, LL(2), GATEs).
import { createToken, CstParser, EOF, LLkLookaheadStrategy, type ILookaheadStrategy, type IToken, type TokenType } from "chevrotain";
import { describe, expect, it } from "vitest";
import { TableLookahead } from "../../grammar/lookahead.js";

const Name = createToken({ name: "Name", pattern: /NA/ });
const A = createToken({ name: "A", pattern: /a/, categories: [Name] });
const B = createToken({ name: "B", pattern: /b/, categories: [Name] });
const C = createToken({ name: "C", pattern: /c/ });
const D = createToken({ name: "D", pattern: /d/ });
const vocabulary: TokenType[] = [Name, A, B, C, D];

/** A grammar whose choices need a category, a second token, a GATE (`gateOpen`) and an optional part. */
class Probe extends CstParser {
  gateOpen = true;
  constructor(strategy: ILookaheadStrategy) {
    super(vocabulary, { maxLookahead: 2, lookaheadStrategy: strategy, recoveryEnabled: false });
    this.performSelfAnalysis();
  }
  choice = this.RULE("choice", () => {
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => [this.CONSUME(A), this.CONSUME(C)] },
        { GATE: () => this.gateOpen, ALT: () => this.CONSUME2(A) },
        { ALT: () => [this.CONSUME(Name), this.CONSUME(D)] },
        { ALT: () => this.CONSUME2(Name) },
        { ALT: () => this.CONSUME2(C) },
      ],
    });
  });
  optional = this.RULE("optional", () => {
    this.OPTION(() => [this.CONSUME(B), this.CONSUME2(D)]);
    this.CONSUME3(B);
  });
}

const token = (t: TokenType): IToken => ({ image: t.name, startOffset: 0, tokenType: t, tokenTypeIdx: t.tokenTypeIdx! }) as IToken;

/** The rule's result (its CST, or the error) over `tokens`, for each strategy. */
function run(p: Probe, rule: "choice" | "optional", tokens: TokenType[]): unknown {
  p.input = tokens.map(token);
  const cst = p[rule]();
  return p.errors.length > 0 ? p.errors[0].message : JSON.stringify(cst.children, (k, v) => (k === "tokenType" ? undefined : v));
}

describe("TableLookahead", () => {
  const chevrotain = new Probe(new LLkLookaheadStrategy({ maxLookahead: 2 }));
  const tables = new Probe(new TableLookahead(2, [...vocabulary, EOF]));
  const kinds = [A, B, C, D];
  const pairs = kinds.flatMap((x) => kinds.map((y) => [x, y]));

  it("chooses the alternative chevrotain chooses for every two tokens, with the GATE open and shut", () => {
    for (const gate of [true, false]) {
      chevrotain.gateOpen = tables.gateOpen = gate;
      for (const tokens of [...pairs, ...kinds.map((k) => [k])]) expect(run(tables, "choice", tokens), tokens.map((t) => t.name).join(" ")).toEqual(run(chevrotain, "choice", tokens));
    }
  });

  it("enters an optional part exactly when chevrotain does", () => {
    for (const tokens of pairs.map(([x, y]) => [x, y, B])) expect(run(tables, "optional", tokens)).toEqual(run(chevrotain, "optional", tokens));
  });
});
