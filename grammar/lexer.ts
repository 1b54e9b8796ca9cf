// Lexer: text → tokens; identifiers that spell a keyword are re-typed as that keyword (case-insensitive).
import { Lexer, type ILexingResult } from "chevrotain";
import { keywordByWord } from "./keywords.js";
import { Identifier, lexerTokens } from "./tokens.js";

const lexer = new Lexer(lexerTokens, { ensureOptimizations: true, positionTracking: "full" });

export function tokenize(text: string): ILexingResult {
  const result = lexer.tokenize(text);
  for (const t of result.tokens) {
    if (t.tokenType === Identifier) {
      const kw = keywordByWord.get(t.image.toLowerCase());
      if (kw !== undefined) {
        t.tokenType = kw;
        t.tokenTypeIdx = kw.tokenTypeIdx!;
      }
    }
  }
  return result;
}
