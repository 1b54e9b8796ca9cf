// Keyword table: every SurrealQL keyword token, generated from one word list; the lexer re-types identifiers found here.
import { createToken, Lexer, type TokenType } from "chevrotain";
import { AnyToken, BinaryOpToken, IdentName } from "./tokens.js";

/** Keywords that are binary operators on their own (IS / NOT are handled by the grammar: `IS NOT`, `NOT IN`). */
const operatorWords = [
  "AND", "OR", "IN", "CONTAINS", "CONTAINSNOT", "CONTAINSALL", "CONTAINSANY", "CONTAINSNONE", "INSIDE", "NOTINSIDE",
  "ALLINSIDE", "ANYINSIDE", "NONEINSIDE", "OUTSIDE", "INTERSECTS",
] as const;

/** Every other keyword. All keywords remain usable as identifiers (`value`, `type`, `user`) where the grammar allows a name. */
const plainWords = [
  "IS", "NOT", "SELECT", "FROM", "WHERE", "AS", "VALUE", "OMIT", "ONLY", "WITH", "INDEX", "NOINDEX", "SPLIT", "AT", "ON",
  "GROUP", "BY", "ALL", "ORDER", "ASC", "DESC", "COLLATE", "NUMERIC", "RAND", "LIMIT", "START", "FETCH", "TIMEOUT",
  "PARALLEL", "EXPLAIN", "FULL", "CREATE", "UPDATE", "UPSERT", "DELETE", "INSERT", "IGNORE", "RELATION", "INTO", "VALUES",
  "DUPLICATE", "KEY", "RELATE", "UNIQUE", "CONTENT", "MERGE", "SET", "UNSET", "REPLACE", "PATCH", "RETURN", "NONE", "NULL",
  "BEFORE", "AFTER", "DIFF", "TRUE", "FALSE", "LET", "IF", "THEN", "ELSE", "END", "FOR", "BREAK", "CONTINUE", "THROW",
  "SLEEP", "BEGIN", "COMMIT", "CANCEL", "TRANSACTION", "USE", "NS", "NAMESPACE", "DB", "DATABASE", "INFO", "ROOT", "KV",
  "TABLE", "TB", "USER", "SCOPE", "STRUCTURE", "DEFINE", "REMOVE", "EXISTS", "OVERWRITE", "COMMENT", "PASSWORD",
  "PASSHASH", "ROLES", "DURATION", "GRANT", "TOKEN", "SESSION", "ACCESS", "TYPE", "RECORD", "JWT", "BEARER", "ALGORITHM",
  "URL", "ISSUER", "REFRESH", "AUTHENTICATE", "SIGNUP", "SIGNIN", "DROP", "SCHEMAFULL", "SCHEMAFUL", "SCHEMALESS", "ANY",
  "NORMAL", "OUT", "TO", "ENFORCED", "CHANGEFEED", "INCLUDE", "ORIGINAL", "PERMISSIONS", "FIELD", "FLEXIBLE", "ASSERT",
  "DEFAULT", "ALWAYS", "READONLY", "FIELDS", "COLUMNS", "SEARCH", "MTREE", "HNSW", "PARAM", "EVENT", "WHEN", "FUNCTION",
  "RETURNS", "ANALYZER", "LIVE", "KILL", "VERSION", "OPTION", "ALTER",
] as const;

export type KeywordName = (typeof operatorWords)[number] | (typeof plainWords)[number];

function keyword(word: string, operator: boolean): TokenType {
  return createToken({
    name: word,
    pattern: Lexer.NA,
    categories: operator ? [IdentName, BinaryOpToken, AnyToken] : [IdentName, AnyToken],
  });
}

/** Keyword token by canonical upper-case word. */
export const KW = {} as Record<KeywordName, TokenType>;
for (const w of operatorWords) KW[w] = keyword(w, true);
for (const w of plainWords) KW[w] = keyword(w, false);

/** Lower-case word → keyword token (for re-typing identifiers after lexing). */
export const keywordByWord = new Map<string, TokenType>(Object.entries(KW).map(([w, t]) => [w.toLowerCase(), t]));

export const keywordTokens: TokenType[] = Object.values(KW);
