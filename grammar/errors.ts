// Errors: chevrotain's lexing/parsing failures → ParseError with SurrealDB-style wording, position and caret snippet.
import { EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from "chevrotain";
import { ParseError } from "../src/errors/index.js";

const punctuation: Record<string, string> = {
  Ellipsis: "...", DotDotEq: "..=", DotDot: "..", BothArrow: "<->", RightArrow: "->", LeftArrow: "<-", DoubleColon: "::",
  PlusQEq: "+?=", PlusEq: "+=", MinusEq: "-=", EqEq: "==", NotEq: "!=", AnyEq: "?=", AllEq: "*=", NotLike: "!~",
  AnyLike: "?~", AllLike: "*~", LtEq: "<=", GtEq: ">=", Nullish: "??", Truthy: "?:", OrOr: "||", AndAnd: "&&",
  Power: "**", Matches: "@@", Eq: "=", Lt: "<", Gt: ">", Plus: "+", Minus: "-", Star: "*", Slash: "/", Percent: "%",
  Times: "×", Divide: "÷", Bang: "!", Tilde: "~", Question: "?", Colon: ":", Dot: ".", Comma: ",", Semicolon: ";",
  LParen: "(", RParen: ")", LBracket: "[", RBracket: "]", LBrace: "{", RBrace: "}", Pipe: "|", Dollar: "$", At: "@",
};

const described: Record<string, string> = {
  IdentName: "an identifier", Identifier: "an identifier", BacktickIdent: "an identifier", AngleIdent: "an identifier",
  StringLiteral: "a string", PrefixedString: "a string", RegexLiteral: "a regex", NumberLiteral: "a number", NumIdent: "a record-id key",
  DurationLiteral: "a duration", Param: "a parameter", BinaryOpToken: "an operator", SetOp: "an operator",
  AnyToken: "a token",
};

/** How an expected token type is named in messages: `` `;` ``, `` `SELECT` ``, "an identifier", "Eof". */
export function describeTokenType(t: TokenType): string {
  if (t === EOF) return "Eof";
  const p = punctuation[t.name];
  if (p !== undefined) return `\`${p}\``;
  const d = described[t.name];
  if (d !== undefined) return d;
  return `\`${t.name}\``;
}

/** Keyword aliases SurrealDB names by the keyword they stand for (recorded from 2.6.0). */
const canonical: Record<string, string> = { NS: "NAMESPACE", DB: "DATABASE" };

/** How a found token is named, as SurrealDB does: "token `FROM`", "token `an identifier`", "end of file". */
export function describeFound(t: IToken): string {
  if (t.tokenType === EOF) return "end of file";
  const n = t.tokenType.name;
  if (n === "Identifier" || n === "BacktickIdent" || n === "AngleIdent") return "token `an identifier`";
  if (n === "Param") return "token `a parameter`";
  if (n === "StringLiteral" || n === "PrefixedString") return "token `a strand`";
  if (n === "NumberLiteral") return "token `a number`";
  if (n === "DurationLiteral") return "token `a duration`";
  if (/^[A-Z]+$/.test(n)) return `token \`${canonical[n] ?? n}\``; // keywords print upper-case
  return `token \`${t.image}\``;
}

/** What a rule expects when no alternative matched (SurrealDB's phrasing). */
const ruleExpectation: Record<string, string> = {
  expr: "an expression", unary: "an expression", postfixExpr: "an expression", primary: "an expression", targets: "an expression",
  statement: "a statement", defineStmt: "a define statement keyword", removeStmt: "a remove statement keyword", alterStmt: "a alter statement keyword",
  name: "an identifier", base: "a base (ROOT, NAMESPACE or DATABASE)", type: "a kind name", typeSingle: "a kind name",
  recordKey: "a record-id key", recordKeyValue: "a record-id key", permissionValue: "`NONE`, `FULL` or `WHERE`", permissionFor: "`NONE`, `FULL` or `WHERE`",
  fields: "an expression", field: "an expression", idiomList: "an idiom", infoStmt: "an info target",
};

function listExpected(types: TokenType[]): string {
  const names = [...new Set(types.map(describeTokenType))];
  if (names.length === 0) return "something else";
  if (names.length <= 6) return names.length === 1 ? names[0] : `one of ${names.join(", ")}`;
  return `one of ${names.slice(0, 6).join(", ")}, …`;
}

/** Expected token types collected during message building (read by toParseError). */
export let lastExpected: string[] = [];

export const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    lastExpected = [describeTokenType(expected)];
    if (expected.name === "RParen" || expected.name === "RBracket" || expected.name === "RBrace") {
      const found = actual.tokenType === EOF ? "token `Eof`" : describeFound(actual);
      return `Unexpected ${found} expected delimiter ${describeTokenType(expected)}`;
    }
    return `Unexpected ${describeFound(actual)}, expected ${describeTokenType(expected)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    lastExpected = ["Eof"];
    return `Unexpected ${describeFound(firstRedundant)}, expected Eof`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, ruleName }) {
    const firsts = expectedPathsPerAlt.flatMap((alt) => alt.map((path) => path[0]).filter((t) => t !== undefined));
    const byRule = ruleExpectation[ruleName];
    lastExpected = byRule !== undefined ? [byRule] : [...new Set(firsts.map(describeTokenType))];
    return `Unexpected ${describeFound(actual[0])}, expected ${byRule ?? listExpected(firsts)}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, ruleName }) {
    const firsts = expectedIterationPaths.map((path) => path[0]).filter((t) => t !== undefined);
    const byRule = ruleExpectation[ruleName];
    lastExpected = byRule !== undefined ? [byRule] : [...new Set(firsts.map(describeTokenType))];
    return `Unexpected ${describeFound(actual[0])}, expected ${byRule ?? listExpected(firsts)}`;
  },
};

/** Record references (`REFERENCE`, `references<…>`) are behind a capability SurrealDB 2.6.0 has off. */
export const EXPERIMENTAL_REFERENCES = "Experimental capability `record_references` is not enabled";

/** 1-based line/column of an offset. */
export function positionOf(text: string, offset: number): { line: number; column: number; offset: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1, offset };
}

/** SurrealDB 2 snippet limits: an error past column 50 keeps 10 characters of context after `...`; lines stop at 80. */
const MAX_ERROR_OFFSET = 50;
const ERROR_CONTEXT = 10;
const MAX_LINE_LENGTH = 80;

/** SurrealDB-style snippet: ` --> [l:c]`, the offending line (trimmed, shortened) and a caret line under the span (plus an optional note). */
export function snippet(text: string, offset: number, length: number, note = ""): string {
  const pos = positionOf(text, offset);
  const lineStart = offset - (pos.column - 1);
  let lineEnd = text.indexOf("\n", lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  const raw = text.slice(lineStart, lineEnd);
  let line = raw.trimStart();
  let col = Math.max(0, pos.column - 1 - (raw.length - line.length));
  line = line.trimEnd();
  if (col > MAX_ERROR_OFFSET) {
    line = "..." + line.slice(col - ERROR_CONTEXT);
    col = ERROR_CONTEXT + 3;
  }
  if (line.length > MAX_LINE_LENGTH) line = line.slice(0, MAX_LINE_LENGTH - 3) + "...";
  const num = String(pos.line);
  const pad = " ".repeat(num.length);
  const carets = "^".repeat(Math.max(1, Math.min(length, line.length - col)));
  return ` --> [${pos.line}:${pos.column}]\n${pad} |\n${num} | ${line}\n${pad} | ${" ".repeat(col)}${carets} ${note}\n`;
}

/**
 * Builds the ParseError for `message` at [offset, offset+length) of `text`; `extra` is a second snippet (e.g. the open
 * delimiter), `note` follows the carets.
 */
export function parseErrorAt(text: string, offset: number, length: number, message: string, expected: readonly string[] = [], extra = "", note = ""): ParseError {
  const snip = snippet(text, offset, length, note) + extra;
  return new ParseError(`Parse error: ${message}\n${snip}`, positionOf(text, offset), expected, snip);
}

/** Offset of the last non-blank character (SurrealDB reports end of file there). */
function endOffset(text: string): number {
  let i = text.length - 1;
  while (i > 0 && /\s/.test(text[i])) i--;
  return Math.max(0, i);
}

/** ParseError located at a token (EOF points at the last character of the text). */
export function parseErrorAtToken(text: string, token: IToken | undefined, message: string, expected: readonly string[] = [], extra = ""): ParseError {
  const eof = token === undefined || token.tokenType === EOF || Number.isNaN(token.startOffset);
  const offset = eof ? endOffset(text) : token.startOffset;
  const length = eof ? 1 : token.image.length;
  return parseErrorAt(text, offset, length, message, expected, extra);
}
