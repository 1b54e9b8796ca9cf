// Parser: tokens → CST. One CstParser assembled from the rules of productions/<topic>.ts (performSelfAnalysis once);
// to-ast.ts turns its CST into the AST.
import { CstParser, EOF, type CstElement, type CstNode, type IToken } from "chevrotain";
import { keywordTokens } from "./keywords.js";
import * as T from "./tokens.js";
import { errorMessageProvider } from "./errors.js";
import { TableLookahead } from "./lookahead.js";
import type { Grammar } from "./productions/dsl.js";
import { dataRules, type DataRules } from "./productions/data.js";
import { defineRules, type DefineRules } from "./productions/define.js";
import { expressionRules, type ExpressionRules } from "./productions/expressions.js";
import { idiomRules, type IdiomRules } from "./productions/idioms.js";
import { literalRules, type LiteralRules } from "./productions/literals.js";
import { statementRules, type StatementRules } from "./productions/statements.js";
import { typeRules, type TypeRules } from "./productions/types.js";

/**
 * Rules on the parser's stack at most. Prefix chains (`!!!…`, `<int><int>…`) and `IF … THEN IF …` nest without
 * brackets, and each bracket level costs 3–8 rules: this stops all of them with a ParseError well before the JS
 * stack runs out (cold, unoptimised frames overflow at about 1,000 rules; 100 nested parentheses take about 400).
 */
export const MAX_RULE_DEPTH = 512;

/** Thrown on entering a rule past MAX_RULE_DEPTH; `parse` reports it at `token`. */
export class RuleDepthExceeded extends Error {
  constructor(readonly token: IToken) {
    super("Exceeded maximum parse depth");
  }
}

type InvocationHook = (this: CstParser, shortName: number, fullName: string, idxInCallingRule: number) => void;
const enterRule = (CstParser.prototype as unknown as { ruleInvocationStateUpdate: InvocationHook }).ruleInvocationStateUpdate;
const afterParse = (CstParser.prototype as unknown as { onAfterParse: (this: CstParser, ruleName: string) => void }).onAfterParse;

/** Chevrotain's (untyped, internal) parts `defineRule` uses. */
type RuleWrapper = (() => CstNode) & { coreRule: (this: ParserInternals) => CstNode };
type DefineRule = (this: CstParser, name: string, impl: () => void, config: object) => RuleWrapper;
interface ParserInternals {
  fullRuleNameToShort: Record<string, number>;
  subruleIdx: number;
  CST_STACK: CstNode[];
  ruleInvocationStateUpdate(shortName: number, fullName: string, idxInCallingRule: number): void;
  cstPostRule(node: CstNode): void;
  invokeRuleCatch(e: unknown, resyncEnabled: boolean, recoveryValueFunc: (e: unknown) => unknown): CstNode;
  ruleFinallyStateUpdate(): void;
}

/** A CST node's children: a fast-mode object whose prototype chain holds no properties at all. */
const Children = function (this: object) {} as unknown as new () => CstNode["children"];
Children.prototype = Object.create(null);

/**
 * A child joins its node under `key`: a key's only child is held as itself, an array from its second on (nine keys
 * in ten hold one child: no array each). Only the accessors of to-ast/context.ts read children; they hide this.
 */
function addChild(children: Record<string, CstElement | CstElement[]>, key: string, child: CstElement): void {
  const held = children[key];
  if (held === undefined) children[key] = child;
  else if (Array.isArray(held)) held.push(child);
  else children[key] = [held, child];
}

/** Every rule is a property of the parser named like the rule (chevrotain's self-analysis looks them up by name). */
export interface SurqlParser extends StatementRules, DataRules, DefineRules, ExpressionRules, IdiomRules, LiteralRules, TypeRules {}

export class SurqlParser extends CstParser {
  constructor() {
    const vocabulary = [...T.categoryTokens, ...T.lexerTokens, ...keywordTokens];
    super(vocabulary, {
      maxLookahead: 2,
      // decisions from per-token tables (grammar/lookahead.ts; the token indexes are assigned by now)
      lookaheadStrategy: new TableLookahead(2, [...vocabulary, EOF]),
      // Grammar validations (ambiguities, left recursion) run under vitest and on demand; skipping them halves start-up.
      skipValidations: process.env.VITEST === undefined && process.env.SURQL_GRAMMAR_VALIDATE !== "1",
      recoveryEnabled: false,
      errorMessageProvider,
      // no node locations: to-ast.ts finds a node's start from its first token
      nodeLocationTracking: "none",
    });
    // the topics' rules, then the analysis of all of them (chevrotain's DSL is protected: the topics get it through Grammar)
    const $ = this as unknown as Grammar;
    Object.assign(this, statementRules($), dataRules($), defineRules($), expressionRules($), idiomRules($), literalRules($), typeRules($));
    this.performSelfAnalysis();
  }

  /** Chevrotain's (untyped, internal) hook on entering every rule: bounds the rule depth. */
  ruleInvocationStateUpdate(shortName: number, fullName: string, idxInCallingRule: number): void {
    enterRule.call(this, shortName, fullName, idxInCallingRule);
    if ((this as unknown as { RULE_STACK_IDX: number }).RULE_STACK_IDX >= MAX_RULE_DEPTH) throw new RuleDepthExceeded(this.LA(1));
  }

  /**
   * Chevrotain's (untyped, internal) rule definition, with the wrapper SUBRULE calls (`coreRule`) written without
   * chevrotain's rest arguments and `apply` (an array per rule invocation; no rule here takes arguments). The same
   * steps: enter the rule, run it, return its node; errors go to chevrotain's catch; leave the rule.
   */
  defineRule(ruleName: string, impl: () => void, config: { recoveryValueFunc?: (e: unknown) => unknown }): RuleWrapper {
    const rule = (CstParser.prototype as unknown as { defineRule: DefineRule }).defineRule.call(this, ruleName, impl, config);
    const self = this as unknown as ParserInternals;
    const shortName = self.fullRuleNameToShort[ruleName];
    const recoveryValueFunc = config.recoveryValueFunc ?? (() => undefined);
    rule.coreRule = function invokeRule(this: ParserInternals): CstNode {
      try {
        this.ruleInvocationStateUpdate(shortName, ruleName, this.subruleIdx);
        impl.call(this);
        const cst = this.CST_STACK[this.CST_STACK.length - 1];
        this.cstPostRule(cst);
        return cst;
      } catch (e) {
        return this.invokeRuleCatch(e, true, recoveryValueFunc);
      } finally {
        this.ruleFinallyStateUpdate();
      }
    };
    return rule;
  }

  /**
   * Chevrotain's (untyped, internal) hook on entering a rule when building a CST: the same node, but its `children`
   * an ordinary object (chevrotain's Object.create(null) is a dictionary-mode object: half the CST pass). Children
   * inherits nothing, so a key no rule wrote reads as undefined; no node locations (nodeLocationTracking "none").
   */
  cstInvocationStateUpdate(fullRuleName: string): void {
    (this as unknown as { CST_STACK: CstNode[] }).CST_STACK.push({ name: fullRuleName, children: new Children() });
  }

  /** Chevrotain's hook after a CONSUME: the token joins the current node under `key` (addChild) (no locations to update). */
  cstPostTerminal(key: string, token: IToken): void {
    const stack = (this as unknown as { CST_STACK: CstNode[] }).CST_STACK;
    addChild(stack[stack.length - 1].children as never, key, token);
  }

  /** Chevrotain's hook after a SUBRULE: the rule's node joins the current node under `key` (addChild). */
  cstPostNonTerminal(node: CstNode, key: string): void {
    const stack = (this as unknown as { CST_STACK: CstNode[] }).CST_STACK;
    addChild(stack[stack.length - 1].children as never, key, node);
  }

  /** Set while `parse` reads a query a statement at a time: a statement may then end at `;`. */
  statementwise = false;

  /** The SurrealDB version the text is read as: 1.x syntax (`record(table)`) is gated on it. */
  compat: 1 | 2 = 2;

  /** Chevrotain's (untyped, internal) hook after a rule called on its own: there, input left over is an error. */
  onAfterParse(ruleName: string): void {
    if (this.statementwise && this.LA(1).tokenType === T.Semicolon) {
      // what chevrotain's hook does but the check: drop the end-of-input sentinels it appended
      const v = (this as unknown as { tokVector: IToken[] }).tokVector;
      while (v.length > 0 && v[v.length - 1].tokenType === EOF) v.pop();
      return;
    }
    afterParse.call(this, ruleName);
  }

  /** The next token (`parse` steps over the `;` between statements itself). */
  peek(): IToken {
    return this.LA(1);
  }

  /** Steps over the next token. */
  skip(): void {
    (this as unknown as { consumeToken(): void }).consumeToken();
  }

  /** Blocks and subqueries the parser stands in: statements there may not be USE. */
  nesting = 0;

  /** Runs `parse` one block or subquery deeper. */
  nested(parse: () => void): void {
    this.nesting++;
    try {
      parse();
    } finally {
      this.nesting--;
    }
  }
}

/** The one parser instance. */
export const parser = new SurqlParser();

export type { CstNode, IToken };
