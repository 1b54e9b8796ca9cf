// Parses every .surql file under examples/ and test/: plain files whole, behaviour files (`=== as …` steps) step by step.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import { ParseError } from "../../src/errors/index.js";

const root = join(import.meta.dirname, "..", "..");

function surqlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) surqlFiles(p, out);
    else if (name.endsWith(".surql")) out.push(p);
  }
  return out;
}

/** Steps of a behaviour file: the query text after `=== as …` up to `---`, and whether an expectation is a parse error. */
function steps(text: string): { query: string; parseError: boolean }[] {
  const out: { query: string; parseError: boolean }[] = [];
  const blocks = text.split(/^=== .*$/m).slice(1);
  for (const block of blocks) {
    const [query, ...rest] = block.split(/^---.*$/m);
    out.push({ query, parseError: /Parse error/.test(rest.join("\n")) });
  }
  return out;
}

const files = [...surqlFiles(join(root, "examples")), ...surqlFiles(join(root, "test"))];

describe("corpus", () => {
  it("finds .surql files", () => expect(files.length).toBeGreaterThan(0));
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (text.startsWith("-- expect-parse-error")) continue;
    it(relative(root, file), () => {
      if (!/^=== /m.test(text)) {
        try {
          expect(parse(text).length).toBeGreaterThan(0);
        } catch (e) {
          // Fixture files with one statement per line and no `;`: every line must parse on its own.
          expect(e).toBeInstanceOf(ParseError);
          const lines = text.split("\n").filter((l) => l.trim() !== "" && !/^\s*(--|#|\/\/)/.test(l));
          for (const line of lines) expect(() => parse(line), line).not.toThrow();
        }
        return;
      }
      // each step as read in each compat the file lists (`-- compat: 1 2`; default 2)
      const compats = (/^-- compat:\s*(.+)$/m.exec(text)?.[1] ?? "2").trim().split(/\s+/).map((c) => (c === "1" ? 1 : 2));
      for (const step of steps(text)) {
        for (const compat of compats) {
          // A step whose expectations mention a parse error may fail (for some compat); others must parse.
          if (step.parseError) {
            try {
              parse(step.query, { compat });
            } catch (e) {
              expect(e).toBeInstanceOf(ParseError);
            }
          } else {
            expect(() => parse(step.query, { compat }), `compat ${compat}: ${step.query}`).not.toThrow();
          }
        }
      }
    });
  }
});
