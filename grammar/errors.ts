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
  StringLiteral: "a string", PrefixedString: "a string", NumberLiteral: "a number", NumIdent: "a record-id key",
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

/** How a found token is named: "token `FROM`", "end of file". */
export function describeFound(t: IToken): string {
  if (t.tokenType === EOF) return "end of file";
  return `token \`${t.image}\``;
}

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
    if (actual.tokenType !== EOF && (expected.name === "RParen" || expected.name === "RBracket" || expected.name === "RBrace")) {
      return `Unexpected ${describeFound(actual)} expected delimiter ${describeTokenType(expected)}`;
    }
    return `Unexpected ${describeFound(actual)}, expected ${describeTokenType(expected)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    lastExpected = ["Eof"];
    return `Unexpected ${describeFound(firstRedundant)}, expected Eof`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual }) {
    const firsts = expectedPathsPerAlt.flatMap((alt) => alt.map((path) => path[0]).filter((t) => t !== undefined));
    lastExpected = [...new Set(firsts.map(describeTokenType))];
    return `Unexpected ${describeFound(actual[0])}, expected ${listExpected(firsts)}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual }) {
    const firsts = expectedIterationPaths.map((path) => path[0]).filter((t) => t !== undefined);
    lastExpected = [...new Set(firsts.map(describeTokenType))];
    return `Unexpected ${describeFound(actual[0])}, expected ${listExpected(firsts)}`;
  },
};

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

/** SurrealDB-style snippet: ` --> [l:c]`, the offending line and a caret line under the span. */
export function snippet(text: string, offset: number, length: number): string {
  const pos = positionOf(text, offset);
  const lineStart = offset - (pos.column - 1);
  let lineEnd = text.indexOf("\n", lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  let line = text.slice(lineStart, lineEnd).replace(/\r$/, "");
  let col = pos.column - 1;
  if (col > 60) {
    // Shorten long lines the way SurrealDB does: keep the tail around the error.
    const cut = col - 20;
    line = "..." + line.slice(cut);
    col = col - cut + 3;
  }
  if (line.length > 120) line = line.slice(0, 117) + "...";
  const num = String(pos.line);
  const pad = " ".repeat(num.length);
  const carets = "^".repeat(Math.max(1, Math.min(length, line.length - col)));
  return ` --> [${pos.line}:${pos.column}]\n${pad} |\n${num} | ${line}\n${pad} | ${" ".repeat(col)}${carets} \n`;
}

/** Builds the ParseError for `message` at [offset, offset+length) of `text`. */
export function parseErrorAt(text: string, offset: number, length: number, message: string, expected: readonly string[] = []): ParseError {
  const snip = snippet(text, offset, length);
  return new ParseError(`Parse error: ${message}\n${snip}`, positionOf(text, offset), expected, snip);
}

/** ParseError located at a token (EOF tokens point at the end of the text). */
export function parseErrorAtToken(text: string, token: IToken, message: string, expected: readonly string[] = []): ParseError {
  const eof = token.tokenType === EOF || Number.isNaN(token.startOffset);
  const offset = eof ? text.length : token.startOffset;
  const length = eof ? 1 : token.image.length;
  return parseErrorAt(text, offset, length, message, expected);
}
