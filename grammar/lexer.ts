// Lexer: text → tokens; identifiers that spell a keyword are re-typed as that keyword (case-insensitive).
import { Lexer, type ILexingResult, type TokenType } from "chevrotain";
import { keywordByWord } from "./keywords.js";
import { Identifier, lexerTokens } from "./tokens.js";

// Offsets only: positions are computed from offsets (errors.ts, to-ast.ts `pos`), so tokens need no line/column.
// No error recovery: only the first error is reported, and recovery would retry every pattern at every later offset
// (an unterminated `⟨` scanned to the end once per following character: quadratic).
const lexer = new Lexer(lexerTokens, { ensureOptimizations: true, positionTracking: "onlyOffset", recoveryEnabled: false });

/** Identifier spelling → keyword token or null; spares a toLowerCase per identifier (names repeat a lot). */
const keywordOf = new Map<string, TokenType | null>();

export function tokenize(text: string): ILexingResult {
  const result = lexer.tokenize(text);
  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.tokenType !== Identifier) continue;
    let kw = keywordOf.get(t.image);
    if (kw === undefined) {
      kw = keywordByWord.get(t.image.toLowerCase()) ?? null;
      if (keywordOf.size >= 50_000) keywordOf.clear();
      keywordOf.set(t.image, kw);
    }
    if (kw !== null) {
      t.tokenType = kw;
      t.tokenTypeIdx = kw.tokenTypeIdx!;
    }
  }
  return result;
}
