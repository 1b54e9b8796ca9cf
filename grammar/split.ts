// Grammar: splits SurrealQL text into statement texts as it arrives (chunk by chunk), so a large file is parsed and run
// one statement at a time instead of held whole. A `;` ends a statement outside strings, comments and brackets.

/** One statement's text (with the blank space and comments before it) and where that text starts (1-based). */
export interface StatementText {
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

type Mode = "code" | "line-comment" | "block-comment" | "single" | "double" | "backtick" | "angle" | "regex";

/** Words after which an operand is expected, so `/` opens a regex literal (as the lexer's RegexLiteral decides). */
const REGEX_AFTER = new Set(["return", "where", "and", "or", "not", "is", "if", "then", "else", "select", "set", "assert", "default", "when", "throw", "contains", "containsnot", "containsall", "containsany", "containsnone", "inside", "notinside", "allinside", "anyinside", "noneinside", "outside", "intersects"]);
const WORD = /[A-Za-z0-9_$]/;

const CLOSE: Partial<Record<Mode, string>> = { single: "'", double: '"', backtick: "`", angle: "⟩" };

/** Incremental splitter: `push` chunks, take the complete statements; `end` returns what is left. */
export class StatementSplitter {
  private buffer = "";
  /** Scan position in `buffer`. */
  private at = 0;
  private mode: Mode = "code";
  private depth = 0;
  private escaped = false;
  /** The word being read in code, and whether the last token ended an operand (a `/` after it divides). */
  private word = "";
  private operand = false;
  /** Where `buffer[0]` is in the source, and where the scan position is. */
  private startLine = 1;
  private startColumn = 1;
  private line = 1;
  private column = 1;

  push(chunk: string): StatementText[] {
    this.buffer += chunk;
    const out: StatementText[] = [];
    while (this.at < this.buffer.length) {
      const c = this.buffer[this.at]!;
      // a two-character token may straddle chunks: wait for the next one
      if ((c === "-" || c === "/" || c === "*") && this.at + 1 >= this.buffer.length && this.mode !== "single" && this.mode !== "double") break;
      const ends = this.step(c);
      this.advance(c);
      if (ends) out.push(this.cut());
    }
    return out;
  }

  /** The text after the last `;`, if it holds anything but blanks. */
  end(): StatementText | undefined {
    const rest = this.buffer;
    const at = { line: this.startLine, column: this.startColumn };
    this.buffer = "";
    this.at = 0;
    return rest.trim() === "" ? undefined : { text: rest, ...at };
  }

  /** Updates the mode for character `c` at the scan position; true when it is a statement's final `;`. */
  private step(c: string): boolean {
    const next = this.buffer[this.at + 1];
    switch (this.mode) {
      case "line-comment":
        if (c === "\n") this.mode = "code";
        return false;
      case "block-comment":
        if (c === "*" && next === "/") {
          this.advance(c);
          this.mode = "code";
        }
        return false;
      case "single":
      case "double":
      case "backtick":
      case "angle":
        if (this.escaped) this.escaped = false;
        else if (c === "\\" && this.mode !== "angle") this.escaped = true;
        else if (c === CLOSE[this.mode]) [this.mode, this.operand] = ["code", true];
        return false;
      case "regex":
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === "/") [this.mode, this.operand] = ["code", true];
        // not a regex after all (the lexer reads `/` as a division then)
        else if (c === "\n") [this.mode, this.operand] = ["code", false];
        return false;
      case "code":
        break;
    }
    if (WORD.test(c)) {
      this.word += c;
      return false;
    }
    if (this.word !== "") {
      this.operand = this.word.startsWith("$") || !REGEX_AFTER.has(this.word.toLowerCase());
      this.word = "";
    }
    // comments leave what came before them as it was
    if (c === "#" || (c === "-" && next === "-") || (c === "/" && next === "/")) this.mode = "line-comment";
    else if (c === "/" && next === "*") {
      this.advance(c);
      this.mode = "block-comment";
    }
    if (this.mode !== "code") return false;
    if (c === "'") this.mode = "single";
    else if (c === '"') this.mode = "double";
    else if (c === "`") this.mode = "backtick";
    else if (c === "⟨") this.mode = "angle";
    else if (c === "/" && !this.operand) this.mode = "regex";
    else if (c === "(" || c === "[" || c === "{") this.depth++;
    else if (c === ")" || c === "]" || c === "}") this.depth = Math.max(0, this.depth - 1);
    else if (c === ";" && this.depth === 0) return true;
    // blanks keep what came before; any other character is an operator or punctuation
    if (!/\s/.test(c)) this.operand = c === ")" || c === "]" || c === "}";
    return false;
  }

  private advance(c: string): void {
    this.at++;
    if (c === "\n") {
      this.line++;
      this.column = 1;
    } else this.column++;
  }

  /** Takes the statement ending at the scan position off the buffer. */
  private cut(): StatementText {
    const text = this.buffer.slice(0, this.at);
    const out = { text, line: this.startLine, column: this.startColumn };
    this.buffer = this.buffer.slice(this.at);
    this.at = 0;
    this.startLine = this.line;
    this.startColumn = this.column;
    return out;
  }
}

/** Statement texts of a stream of text chunks, in order, as they complete. */
export async function* splitStatements(chunks: AsyncIterable<string>): AsyncGenerator<StatementText> {
  const splitter = new StatementSplitter();
  for await (const chunk of chunks) yield* splitter.push(chunk);
  const last = splitter.end();
  if (last) yield last;
}

/** Moves a position inside a statement text to the source: lines add up, the first line's columns too. */
export function sourcePosition(stmt: StatementText, line: number, column: number): { line: number; column: number } {
  return line <= 1 ? { line: stmt.line, column: stmt.column + column - 1 } : { line: stmt.line + line - 1, column };
}

/** The statement text's source line `line` (source numbering) with a caret under `column`; the part of the first line
 * before the statement is blank. */
export function caretSnippet(stmt: StatementText, line: number, column: number): string {
  const lines = stmt.text.split(/\r?\n/);
  const index = line - stmt.line;
  const src = index === 0 ? " ".repeat(stmt.column - 1) + (lines[0] ?? "") : (lines[index] ?? "");
  return `${src.trimEnd()}\n${" ".repeat(Math.max(0, column - 1))}^`;
}

/** Where a statement text's first token is (after blanks and comments), in source numbering. */
export function firstTokenPosition(stmt: StatementText): { line: number; column: number } {
  const lead = /^(?:\s+|--[^\n]*|\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(stmt.text)![0];
  const lines = lead.split("\n");
  const line = lines.length;
  const column = lines[lines.length - 1]!.length + 1;
  return sourcePosition(stmt, line, column);
}
