// Tokens: punctuation, literals, identifiers and comments — the lexer's vocabulary (keywords live in keywords.ts).
import { createToken, Lexer, type IToken, type ITokenConfig, type TokenType } from "chevrotain";

/** Category of every token (used to skip the opaque tail of DEFINE ANALYZER / SEARCH indexes). */
export const AnyToken = createToken({ name: "AnyToken", pattern: Lexer.NA });
/** Anything usable as a name: identifiers, quoted identifiers and every keyword. */
export const IdentName = createToken({ name: "IdentName", pattern: Lexer.NA, categories: [AnyToken] });
/** Single-token binary operators (symbols and operator keywords). */
export const BinaryOpToken = createToken({ name: "BinaryOpToken", pattern: Lexer.NA, categories: [AnyToken] });

function tok(config: ITokenConfig & { op?: boolean; name: string }): TokenType {
  const { op, ...rest } = config;
  const categories = [AnyToken, ...(op ? [BinaryOpToken] : []), ...((rest.categories as TokenType[]) ?? [])];
  return createToken({ ...rest, categories });
}

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/, group: Lexer.SKIPPED, line_breaks: true });
export const BlockComment = createToken({ name: "BlockComment", pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED, line_breaks: true });
/** `/*` without its end: reported as an error by the lexer wrapper. */
export const UnterminatedComment = createToken({ name: "UnterminatedComment", pattern: /\/\*[\s\S]*/, line_breaks: true });
export const LineComment = createToken({ name: "LineComment", pattern: /(?:--|\/\/|#)[^\n\r]*/, group: Lexer.SKIPPED });

// Literals
const q1 = String.raw`'(?:[^'\\]|\\[\s\S])*'`;
const q2 = String.raw`"(?:[^"\\]|\\[\s\S])*"`;
export const PrefixedString = tok({ name: "PrefixedString", pattern: new RegExp(`[rdusbRDUSB](?:${q1}|${q2})`), line_breaks: true, start_chars_hint: ["r", "d", "u", "s", "b", "R", "D", "U", "S", "B"] });
export const StringLiteral = tok({ name: "StringLiteral", pattern: new RegExp(`${q1}|${q2}`), line_breaks: true, start_chars_hint: ["'", '"'] });
const unit = "(?:ns|us|µs|μs|ms|s|m|h|d|w|y)";
const digits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
export const DurationLiteral = tok({ name: "DurationLiteral", pattern: new RegExp(`\\d+${unit}(?:\\d+${unit})*(?![A-Za-z0-9_])`), start_chars_hint: digits });
export const NumberLiteral = tok({ name: "NumberLiteral", pattern: /\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][-+]?\d[\d_]*)?(?:f|dec)?(?![A-Za-z0-9_])/, start_chars_hint: digits });
/** Digits followed by letters (`123abc`): only meaningful as a record-id key. */
export const NumIdent = tok({ name: "NumIdent", pattern: /\d+[A-Za-z_][A-Za-z0-9_]*/, start_chars_hint: digits });
export const Identifier = tok({ name: "Identifier", pattern: /[A-Za-z_][A-Za-z0-9_]*/, categories: [IdentName] });
export const BacktickIdent = tok({ name: "BacktickIdent", pattern: /`(?:[^`\\]|\\[\s\S])*`/, categories: [IdentName], line_breaks: true });
export const AngleIdent = tok({ name: "AngleIdent", pattern: /⟨(?:[^⟩\\]|\\[\s\S])*⟩/, categories: [IdentName], line_breaks: true });
export const Param = tok({ name: "Param", pattern: /\$[A-Za-z0-9_]+/ });

// Punctuation, longest first
export const Ellipsis = tok({ name: "Ellipsis", pattern: /\.\.\.|…/ });
export const DotDotEq = tok({ name: "DotDotEq", pattern: /\.\.=/ });
export const DotDot = tok({ name: "DotDot", pattern: /\.\./ });
export const BothArrow = tok({ name: "BothArrow", pattern: /<->/ });
export const RightArrow = tok({ name: "RightArrow", pattern: /->/ });
export const LeftArrow = tok({ name: "LeftArrow", pattern: /<-/ });
export const DoubleColon = tok({ name: "DoubleColon", pattern: /::/ });
export const PlusQEq = tok({ name: "PlusQEq", pattern: /\+\?=/ });
export const PlusEq = tok({ name: "PlusEq", pattern: /\+=/ });
export const MinusEq = tok({ name: "MinusEq", pattern: /-=/ });
export const EqEq = tok({ name: "EqEq", pattern: /==/, op: true });
export const NotEq = tok({ name: "NotEq", pattern: /!=/, op: true });
export const AnyEq = tok({ name: "AnyEq", pattern: /\?=/, op: true });
export const AllEq = tok({ name: "AllEq", pattern: /\*=/, op: true });
export const NotLike = tok({ name: "NotLike", pattern: /!~/, op: true });
export const AnyLike = tok({ name: "AnyLike", pattern: /\?~/, op: true });
export const AllLike = tok({ name: "AllLike", pattern: /\*~/, op: true });
export const LtEq = tok({ name: "LtEq", pattern: /<=/, op: true });
export const GtEq = tok({ name: "GtEq", pattern: /≥|>=/, op: true });
export const Nullish = tok({ name: "Nullish", pattern: /\?\?/, op: true });
export const Truthy = tok({ name: "Truthy", pattern: /\?:/, op: true });
export const OrOr = tok({ name: "OrOr", pattern: /\|\|/, op: true });
export const AndAnd = tok({ name: "AndAnd", pattern: /&&/, op: true });
export const Power = tok({ name: "Power", pattern: /\*\*/, op: true });
export const Matches = tok({ name: "Matches", pattern: /@@/, op: true });
export const SetOp = tok({ name: "SetOp", pattern: /[∋∌⊇⊃⊅∈∉⊆⊂⊄]/, op: true });
export const Eq = tok({ name: "Eq", pattern: /=/, op: true });
export const Lt = tok({ name: "Lt", pattern: /</, op: true });
export const Gt = tok({ name: "Gt", pattern: />/, op: true });
/** A `>` touching `..`: an excluded range begin (`1>..3`, `t:1>..3`); otherwise a `>` (`<string>..3` closes a cast). */
export const GtRange = tok({ name: "GtRange", pattern: />(?=\.\.)/, categories: [Gt], start_chars_hint: [">"] });
export const Plus = tok({ name: "Plus", pattern: /\+/, op: true });
export const Minus = tok({ name: "Minus", pattern: /-/, op: true });
export const Star = tok({ name: "Star", pattern: /\*/, op: true });
/** Words after which an operand is expected, so `/` opens a regex literal (after any other word it divides). */
const regexAfterWords = new Set(["return", "where", "and", "or", "not", "is", "if", "then", "else", "select", "set", "assert", "default", "when", "throw", "contains", "containsnot", "containsall", "containsany", "containsnone", "inside", "notinside", "allinside", "anyinside", "noneinside", "outside", "intersects"]);
const regexBody = /\/((?:[^/\\\n\r]|\\[^\n\r])+)\//y;
/** Tokens that end an operand: a `/` after them is a division. */
let operandEnds: ReadonlySet<TokenType> | undefined;
/** `/…/` where an operand is expected (SurrealDB lexes a regex only there); `\/` escapes a slash. */
export const RegexLiteral = tok({
  name: "RegexLiteral",
  pattern: {
    exec: (text: string, offset: number, matched: IToken[]): RegExpExecArray | null => {
      const next = text.charCodeAt(offset + 1);
      if (next === 0x2a || next === 0x2f) return null; // `/*`, `//` are comments
      const prev = matched.length > 0 ? matched[matched.length - 1]! : undefined;
      if (prev !== undefined) {
        operandEnds ??= new Set([NumberLiteral, DurationLiteral, NumIdent, StringLiteral, PrefixedString, BacktickIdent, AngleIdent, Param, RParen, RBracket, RBrace, RegexLiteral]);
        if (operandEnds.has(prev.tokenType)) return null;
        if (prev.tokenType === Identifier && !regexAfterWords.has(prev.image.toLowerCase())) return null;
      }
      regexBody.lastIndex = offset;
      return regexBody.exec(text);
    },
  },
  line_breaks: false,
  start_chars_hint: ["/"],
});
export const Slash = tok({ name: "Slash", pattern: /\//, op: true });
export const Percent = tok({ name: "Percent", pattern: /%/, op: true });
export const Times = tok({ name: "Times", pattern: /×/, op: true });
export const Divide = tok({ name: "Divide", pattern: /÷/, op: true });
export const Bang = tok({ name: "Bang", pattern: /!/ });
export const Tilde = tok({ name: "Tilde", pattern: /~/, op: true });
export const Question = tok({ name: "Question", pattern: /\?/ });
export const Colon = tok({ name: "Colon", pattern: /:/ });
export const Dot = tok({ name: "Dot", pattern: /\./ });
export const Comma = tok({ name: "Comma", pattern: /,/ });
export const Semicolon = createToken({ name: "Semicolon", pattern: /;/ });
export const LParen = tok({ name: "LParen", pattern: /\(/ });
export const RParen = tok({ name: "RParen", pattern: /\)/ });
export const LBracket = tok({ name: "LBracket", pattern: /\[/ });
export const RBracket = tok({ name: "RBracket", pattern: /\]/ });
export const LBrace = tok({ name: "LBrace", pattern: /\{/ });
export const RBrace = tok({ name: "RBrace", pattern: /\}/ });
export const Pipe = tok({ name: "Pipe", pattern: /\|/ });
export const Dollar = tok({ name: "Dollar", pattern: /\$/ });
export const At = tok({ name: "At", pattern: /@/ });

/** Lexer order: first match wins, so longer forms precede their prefixes. */
export const lexerTokens: TokenType[] = [
  WhiteSpace, BlockComment, UnterminatedComment, LineComment,
  PrefixedString, StringLiteral, DurationLiteral, NumberLiteral, NumIdent, Identifier, BacktickIdent, AngleIdent, Param,
  Ellipsis, DotDotEq, DotDot, BothArrow, RightArrow, LeftArrow, DoubleColon, PlusQEq, PlusEq, MinusEq, EqEq, NotEq, AnyEq,
  AllEq, NotLike, AnyLike, AllLike, LtEq, GtEq, Nullish, Truthy, OrOr, AndAnd, Power, Matches, SetOp, Eq, Lt, GtRange, Gt, Plus,
  Minus, Star, RegexLiteral, Slash, Percent, Times, Divide, Bang, Tilde, Question, Colon, Dot, Comma, Semicolon, LParen, RParen,
  LBracket, RBracket, LBrace, RBrace, Pipe, Dollar, At,
];

/** Categories (never produced by the lexer, but part of the parser's vocabulary). */
export const categoryTokens: TokenType[] = [AnyToken, IdentName, BinaryOpToken];
