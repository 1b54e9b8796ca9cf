// The parser as a topic file sees it: chevrotain's DSL (protected on the class, public here) and every rule by name.
import type { ConsumeMethodOpts, CstNode, DSLMethodOpts, DSLMethodOptsWithErr, GrammarAction, IOrAlt, IToken, OrMethodOpts, ParserMethod, SubruleMethodOpts, TokenType } from "chevrotain";
import type { SurqlParser } from "../parser.js";

/** A grammar rule: a property of the parser named like the rule, so a misspelled SUBRULE does not compile. */
export type Rule = ParserMethod<[], CstNode>;

type Consume = (tokType: TokenType, options?: ConsumeMethodOpts) => IToken;
type Subrule = (rule: Rule, options?: SubruleMethodOpts<[]>) => CstNode;
type Or = (alts: IOrAlt<unknown>[] | OrMethodOpts<unknown>) => unknown;
type Opt = (action: GrammarAction<unknown> | DSLMethodOpts<unknown>) => unknown;
type Many = (action: GrammarAction<unknown> | DSLMethodOpts<unknown>) => void;

interface Dsl {
  RULE(name: string, implementation: () => void): Rule;
  LA(howMuch: number): IToken;
  CONSUME: Consume; CONSUME2: Consume; CONSUME3: Consume; CONSUME4: Consume; CONSUME5: Consume;
  SUBRULE: Subrule; SUBRULE2: Subrule; SUBRULE3: Subrule; SUBRULE4: Subrule; SUBRULE5: Subrule; SUBRULE6: Subrule;
  OR: Or; OR2: Or; OR3: Or; OR4: Or;
  OPTION: Opt; OPTION2: Opt; OPTION3: Opt; OPTION4: Opt; OPTION5: Opt; OPTION6: Opt; OPTION7: Opt; OPTION8: Opt; OPTION9: Opt;
  option(idx: number, action: GrammarAction<unknown> | DSLMethodOpts<unknown>): unknown;
  consume(idx: number, tokType: TokenType, options?: ConsumeMethodOpts): IToken;
  or(idx: number, alts: IOrAlt<unknown>[] | OrMethodOpts<unknown>): unknown;
  many(idx: number, action: GrammarAction<unknown> | DSLMethodOpts<unknown>): void;
  subrule(idx: number, rule: Rule, options?: SubruleMethodOpts<[]>): CstNode;
  MANY: Many; MANY2: Many; MANY3: Many;
  AT_LEAST_ONE(action: GrammarAction<unknown> | DSLMethodOptsWithErr<unknown>): void;
}

/**
 * What each `productions/<topic>.ts` receives: the one parser instance, DSL and rules. A topic builds the OR
 * alternatives and loop bodies of its hot rules once, as consts (an inline literal is allocated on every invocation).
 */
export type Grammar = SurqlParser & Dsl;
