// Grammar entry points: SurrealQL text → AST (parse, parseExpr, parseRecordId, parseType). Throws only ParseError.
import { EOF, type CstNode, type IRecognitionException, type IToken } from "chevrotain";
import type { Expr, RecordIdExpr, Statement, TypeKind } from "../src/ast/nodes.js";
import { ParseError } from "../src/errors/index.js";
import { RecordId } from "../src/value/types.js";
import { EXPERIMENTAL_REFERENCES, lastExpected, parseErrorAt, parseErrorAtToken, snippet } from "./errors.js";
import { tokenize } from "./lexer.js";
import { parser, RuleDepthExceeded } from "./parser.js";
import { AstBuilder, recordKeyValue, setRecordIdParser } from "./to-ast.js";
import * as T from "./tokens.js";
import { KW, type KeywordName } from "./keywords.js";

/** Maximum nesting of brackets, like SurrealDB's parser depth limit. */
export const MAX_DEPTH = 256;

/** What an opening quote left unterminated expects (SurrealDB 2.6 wording). */
const unterminated: Record<string, string> = { "'": "strand to end", '"': "strand to end", "`": "identifier to end with ```", "⟨": "identifier to end with `⟩`" };

/** Words 1.5.4 reads as a table name right before `:` (`select:a`, `if:1`); 2.x's parser does not. */
const V1_TABLE_WORDS = new Set(
  (["CREATE", "DEFINE", "DELETE", "IF", "INSERT", "RELATE", "REMOVE", "SELECT", "UPDATE", "UPSERT", "NONE", "NULL", "TRUE", "FALSE"] as KeywordName[]).map((w) => KW[w]),
);

/**
 * Compat 1: such a word directly followed by `:` becomes an identifier, so the record-id rule reads it; so does a
 * word of digits then letters that is no number or duration (`1a`, `1e`, `0x10`: 1.5.4 reads it as an identifier).
 */
function v1Words(tokens: IToken[]): IToken[] {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const tableWord = next?.tokenType === T.Colon && next.startOffset === t.startOffset + t.image.length && V1_TABLE_WORDS.has(t.tokenType);
    if (tableWord || t.tokenType === T.NumIdent) {
      t.tokenType = T.Identifier;
      t.tokenTypeIdx = T.Identifier.tokenTypeIdx!;
    }
  }
  return tokens;
}

function lex(text: string, compat: 1 | 2 = 2): IToken[] {
  if (compat === 1) return v1Words(lex(text));
  const result = tokenize(text);
  if (result.errors.length > 0) {
    const e = result.errors[0];
    const open = /^[rdusbRDUSB]?(['"`⟨])/.exec(text.slice(e.offset, e.offset + 2))?.[1];
    if (open !== undefined) throw parseErrorAt(text, e.offset, text.length - e.offset, `Unexpected end of file, expected ${unterminated[open]}`);
    throw parseErrorAt(text, e.offset, 1, `Invalid token \`${String.fromCodePoint(text.codePointAt(e.offset) ?? 0)}\``);
  }
  let depth = 0;
  // (an indexed loop: this one runs once per query, and a for-of there allocates an iterator result per token)
  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const ty = t.tokenType;
    if (ty === T.UnterminatedComment) throw parseErrorAt(text, t.startOffset, 2, "Unexpected end of file, expected multi-line comment to end.", [], "", "Comment starts here.");
    if (ty === T.LParen || ty === T.LBracket || ty === T.LBrace) {
      if (++depth > MAX_DEPTH) throw parseErrorAtToken(text, t, `Exceeded maximum parse depth of ${MAX_DEPTH}`);
    } else if (ty === T.RParen || ty === T.RBracket || ty === T.RBrace) depth = Math.max(0, depth - 1);
  }
  return result.tokens;
}

/** Chevrotain's (untyped) token position of the parser. */
const position = parser as unknown as { exportLexerState(): number; importLexerState(at: number): void };

/** Runs `parse` (tokens in, errors out as ParseError) with the parser's input cleared afterwards, or given back to
 *  the parse it ran inside (a literal read while a query's statements are built: `r'…'`, 1.x record-id strings). */
function guarded<T>(text: string, parse: () => T): T {
  const outer = parser.input.length > 0 ? { input: parser.input, at: position.exportLexerState(), statementwise: parser.statementwise, compat: parser.compat } : undefined;
  try {
    return parse();
  } catch (e) {
    if (e instanceof ParseError) throw e;
    if (e instanceof RuleDepthExceeded) throw parseErrorAtToken(text, e.token, e.message);
    // last resort (the rule-depth bound should come first): report where the parser stood
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw parseErrorAtToken(text, parser.peek(), "Exceeded maximum parse depth");
    const message = e instanceof Error ? e.message : String(e);
    throw parseErrorAt(text, 0, 1, `Failed to parse query: ${message}`);
  } finally {
    parser.input = outer?.input ?? [];
    if (outer) position.importLexerState(outer.at);
    parser.statementwise = outer?.statementwise ?? false;
    parser.compat = outer?.compat ?? 2;
  }
}

/** The parser's first error as a ParseError. */
function syntaxError(text: string, e: IRecognitionException): ParseError {
  return experimentalReference(text, parser.input, e.token) ?? parseErrorAtToken(text, e.token, e.message, lastExpected, openDelimiterNote(text, parser.input, e.token, e.message));
}

function run<T>(text: string, rule: () => CstNode, build: (b: AstBuilder, cst: CstNode) => T, opts: ParseOptions = {}): T {
  return guarded(text, () => {
    parser.input = lex(text, opts.compat);
    parser.compat = opts.compat ?? 2;
    const cst = rule.call(parser);
    const errors: IRecognitionException[] = parser.errors;
    if (errors.length > 0) throw syntaxError(text, errors[0]);
    return build(new AstBuilder(text, opts.compat), cst);
  });
}

/**
 * `DEFINE FIELD … REFERENCE`: SurrealDB's capability error, placed at the end of the token before the keyword, for
 * record references (an experimental feature 2.6.0 has off), instead of the syntax error at REFERENCE.
 */
function experimentalReference(text: string, tokens: IToken[], at: IToken): ParseError | undefined {
  if (!/^reference$/i.test(at.image)) return undefined;
  const i = tokens.indexOf(at);
  let start = i;
  while (start > 0 && tokens[start - 1]!.tokenType !== T.Semicolon) start--;
  if (i < 1 || !/^define$/i.test(tokens[start]!.image) || !/^field$/i.test(tokens[start + 1]?.image ?? "")) return undefined;
  const prev = tokens[i - 1]!;
  return parseErrorAt(text, prev.startOffset + prev.image.length - 1, 1, EXPERIMENTAL_REFERENCES, [], "", "Use of `REFERENCE` keyword is still experimental");
}

const closers: Record<string, string> = { "`)`": "LParen", "`]`": "LBracket", "`}`": "LBrace" };

/** For "expected delimiter" errors, a second snippet pointing at the unclosed opening delimiter. */
function openDelimiterNote(text: string, tokens: IToken[], at: IToken, message: string): string {
  const m = /expected delimiter (`.`)/.exec(message);
  if (!m) return "";
  const opener = closers[m[1]];
  const stack: IToken[] = [];
  const limit = at.tokenType === EOF || Number.isNaN(at.startOffset) ? Infinity : at.startOffset;
  for (const t of tokens) {
    if (t.startOffset >= limit) break;
    const n = t.tokenType.name;
    if (n === "LParen" || n === "LBracket" || n === "LBrace") stack.push(t);
    else if (n === "RParen" || n === "RBracket" || n === "RBrace") stack.pop();
  }
  for (let i = stack.length - 1; i >= 0; i--) {
    if (stack[i].tokenType.name === opener) return snippet(text, stack[i].startOffset, 1, "expected this delimiter to close");
  }
  return "";
}

export interface ParseOptions {
  /** 1: read as SurrealDB 1.x does (a string literal that is a whole record id is that record id). Default 2. */
  readonly compat?: 1 | 2;
}

/**
 * Parses a query (statements separated by `;`) a statement at a time: each statement's CST is dropped once its AST
 * is built (a whole query's CST outlived young-generation collections). Errors are those of a whole-query parse: the
 * first syntax error, else the first error found building the AST.
 */
export function parse(text: string, opts: ParseOptions = {}): Statement[] {
  return guarded(text, () => {
    parser.input = lex(text, opts.compat);
    parser.statementwise = true;
    parser.compat = opts.compat ?? 2;
    const b = new AstBuilder(text, opts.compat);
    const out: Statement[] = [];
    let astError: ParseError | undefined;
    for (;;) {
      while (parser.peek().tokenType === T.Semicolon) parser.skip();
      if (parser.peek().tokenType === EOF) return astError === undefined ? out : raise(astError);
      const cst = parser.queryStatement();
      const errors: IRecognitionException[] = parser.errors;
      if (errors.length > 0) throw syntaxError(text, errors[0]);
      if (astError === undefined) {
        try {
          for (const st of b.queryStatement(cst)) out.push(st);
        } catch (e) {
          if (!(e instanceof ParseError)) throw e;
          astError = e;
        }
      }
    }
  });
}

function raise(e: ParseError): never {
  throw e;
}

/** Parses one expression (the whole text). */
export function parseExpr(text: string, opts: ParseOptions = {}): Expr {
  return run(text, parser.expr, (b, cst) => b.expr(cst), opts);
}

/** Parses a type as written after `TYPE` or inside `<…>`. */
export function parseType(text: string): TypeKind {
  return run(text, parser.type, (b, cst) => b.type(cst));
}

function recordIdExpr(text: string, opts: ParseOptions = {}): RecordIdExpr {
  const e = parseExpr(text, opts);
  if (e.kind !== "RecordId") throw parseErrorAt(text, 0, Math.max(1, text.length), `Unexpected token \`${text}\`, expected a record-id`, ["a record-id"]);
  return e;
}
setRecordIdParser(recordIdExpr);

/** Parses exactly a record id (`user:1`, `user:⟨a.b⟩`, `` user:`x` ``, `user:[1, 2]`) into a value. */
export function parseRecordId(text: string, opts: ParseOptions = {}): RecordId {
  const e = recordIdExpr(text, opts);
  const key = recordKeyValue(e.key);
  if (key === undefined) throw parseErrorAt(text, 0, Math.max(1, text.length), `Unexpected token \`${text}\`, expected a record-id with a literal key`, ["a record-id"]);
  return new RecordId(e.table, key);
}


export { ParseError };
