// Benchmark: hostile client text (unterminated tokens, long digit runs before a bad character, deep nesting, casts of
// huge strings) at 256 KiB, 512 KiB and 1 MiB; prints ms per MiB for each family, which stays flat when handling is
// linear. The families are shared with test/grammar/adversarial.test.ts and test/value/cast-adversarial.test.ts.
import os from "node:os";
import { parse } from "../grammar/index.js";
import type { BasicTypeName, TypeKind } from "../src/ast/nodes.js";
import { cast } from "../src/value/cast.js";

export const MiB = 1 << 20;

/** `unit` repeated to about `size` characters (never fewer than one copy), then `tail`. */
export function fill(unit: string, size: number, head = "", tail = ""): string {
  return head + unit.repeat(Math.max(1, Math.floor(size / unit.length))) + tail;
}

/** A text that must fail to parse, and a piece of the ParseError's message. */
export interface ParseFamily {
  readonly name: string;
  readonly text: (size: number) => string;
  readonly error: string;
  /** A long valid prefix parsed in full before the error (slow but linear: the tests use a quarter of the size). */
  readonly flat?: true;
}

const strandEnd = "Unexpected end of file, expected strand to end";
const commentEnd = "Unexpected end of file, expected multi-line comment to end.";
const angleEnd = "Unexpected end of file, expected identifier to end with `⟩`";
const backtickEnd = "Unexpected end of file, expected identifier to end with ```";
const depth = "Exceeded maximum parse depth";

export const parseFamilies: readonly ParseFamily[] = [
  // every quoted token left open
  { name: "'…", text: (n) => fill("a", n, "RETURN '"), error: strandEnd },
  { name: '"…', text: (n) => fill("a", n, 'RETURN "'), error: strandEnd },
  { name: "r'…", text: (n) => fill("a", n, "RETURN r'"), error: strandEnd },
  { name: 'd"…', text: (n) => fill("2", n, 'RETURN d"'), error: strandEnd },
  { name: "u'…", text: (n) => fill("a", n, "RETURN u'"), error: strandEnd },
  { name: "b'…", text: (n) => fill("0", n, "RETURN b'"), error: strandEnd },
  { name: "s'…", text: (n) => fill("a", n, "RETURN s'"), error: strandEnd },
  { name: "'\\…", text: (n) => fill("'\\", n, "RETURN "), error: strandEnd },
  { name: "'\\n…", text: (n) => fill("\\n", n, "RETURN '"), error: strandEnd },
  { name: "⟨…", text: (n) => fill("a", n, "RETURN ⟨"), error: angleEnd },
  { name: "⟨⟨⟨…", text: (n) => fill("⟨", n, "RETURN "), error: angleEnd },
  { name: "`…", text: (n) => fill("a", n, "RETURN `"), error: backtickEnd },
  { name: "`\\…", text: (n) => fill("`\\", n, "RETURN "), error: backtickEnd },
  { name: "tb:⟨…", text: (n) => fill("a", n, "SELECT * FROM tb:⟨"), error: angleEnd },
  { name: "tb:`…", text: (n) => fill("a", n, "SELECT * FROM tb:`"), error: backtickEnd },
  { name: "''''…", text: (n) => fill("'", n, "RETURN ", "'"), error: strandEnd },
  { name: "/*…", text: (n) => fill("a", n, "RETURN 1 /*"), error: commentEnd },
  { name: "/* /* /* …", text: (n) => fill("/* ", n, "RETURN 1 "), error: commentEnd },
  // long digit runs before a bad character
  { name: "1111…§", text: (n) => fill("1", n, "RETURN ", "§"), error: "Invalid token `§`" },
  { name: "1111…x)", text: (n) => fill("1", n, "RETURN ", "x)"), error: "Unexpected token `" },
  { name: "1.111…e)", text: (n) => fill("1", n, "RETURN 1.", "e)"), error: "Unexpected token" },
  { name: "1m1m…x)", text: (n) => fill("1m", n, "RETURN ", "x)"), error: "Unexpected token `" },
  { name: "1e1e…)", text: (n) => fill("1e", n, "RETURN ", ")"), error: "Unexpected token `" },
  { name: "tb:1111…§", text: (n) => fill("1", n, "SELECT * FROM tb:", "§"), error: "Invalid token `§`" },
  { name: "§§§…", text: (n) => fill("§", n, "RETURN "), error: "Invalid token `§`" },
  // long flat input ending in an error
  { name: "1+1+…)", text: (n) => fill("1+", n, "RETURN ", "1)"), error: "Unexpected token `)`", flat: true },
  { name: "a.a.a…)", text: (n) => fill(".a", n, "RETURN a", ")"), error: "Unexpected token `)`", flat: true },
  { name: "a->b->…)", text: (n) => fill("->b", n, "RETURN a", ")"), error: "Unexpected token `)`", flat: true },
  { name: "[1,1,…", text: (n) => fill("1,", n, "RETURN ["), error: "expected delimiter `]`", flat: true },
  { name: "$$$…", text: (n) => fill("$", n, "RETURN "), error: "Unexpected token `$`" },
  // deep nesting
  { name: "((((…", text: (n) => fill("(", n, "RETURN "), error: depth },
  { name: "[[[[…", text: (n) => fill("[", n, "RETURN "), error: depth },
  { name: "{{{{…", text: (n) => fill("{", n, "RETURN "), error: depth },
  { name: "{a:{a:…", text: (n) => fill("{a:", n, "RETURN "), error: depth },
  { name: "(SELECT * FROM (…", text: (n) => fill("(SELECT * FROM ", n, "RETURN "), error: depth },
  { name: "!!!!…", text: (n) => fill("!", n, "RETURN ", "true"), error: depth },
  { name: "- - - …", text: (n) => fill("- ", n, "RETURN ", "1"), error: depth },
  { name: "<int><int>…", text: (n) => fill("<int>", n, "RETURN ", "1"), error: depth },
  { name: "IF a THEN IF …", text: (n) => fill("IF a THEN ", n, "RETURN "), error: depth },
];

/** A string cast to `type` that must fail (or, with `value`, succeed) without super-linear work. */
export interface CastFamily {
  readonly name: string;
  readonly type: BasicTypeName;
  readonly text: (size: number) => string;
}

export const castFamilies: readonly CastFamily[] = [
  { name: "<float> 1111…x", type: "float", text: (n) => fill("1", n, "", "x") },
  { name: "<float> 1.111…x", type: "float", text: (n) => fill("1", n, "1.", "x") },
  { name: "<float> 1e111…x", type: "float", text: (n) => fill("1", n, "1e", "x") },
  { name: "<number> 1111…x", type: "number", text: (n) => fill("1", n, "", "x") },
  { name: "<int> 1111…", type: "int", text: (n) => fill("1", n) },
  { name: "<int> -000…1x", type: "int", text: (n) => fill("0", n, "-", "1x") },
  { name: "<decimal> 1111…", type: "decimal", text: (n) => fill("1", n) },
  { name: "<decimal> 1_1_…x", type: "decimal", text: (n) => fill("1_", n, "", "x") },
  { name: "<duration> 1111…s", type: "duration", text: (n) => fill("1", n, "", "s") },
  { name: "<duration> 1s1s…x", type: "duration", text: (n) => fill("1s", n, "", "x") },
  { name: "<datetime> fraction…", type: "datetime", text: (n) => fill("1", n, "2020-01-01T00:00:00.", "Z") },
  { name: "<uuid> aaaa…", type: "uuid", text: (n) => fill("a", n) },
  { name: "<bool> tttt…", type: "bool", text: (n) => fill("t", n) },
];

export const basicType = (name: BasicTypeName): TypeKind => ({ kind: "Basic", name });

/** Milliseconds `handle` takes on `text` (the error is expected and ignored). */
function time(text: string, handle: (text: string) => unknown): number {
  const t0 = performance.now();
  try {
    handle(text);
  } catch {
    // the families are errors by design
  }
  return performance.now() - t0;
}

export function main(): void {
  const sizes = [MiB / 4, MiB / 2, MiB];
  const row = (name: string, run: (size: number) => number): void => {
    run(MiB / 16); // warm-up
    const cells = sizes.map((size) => `${((run(size) * MiB) / size).toFixed(0).padStart(6)}`);
    console.log(`${name.padEnd(24)}${cells.join("")}`);
  };
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} (${os.cpus().length} cpus), node ${process.version}`);
  console.log(`adversarial input, ms per MiB of text at ${sizes.map((s) => `${s / 1024} KiB`).join(", ")} (flat = linear)`);
  for (const f of parseFamilies) row(`parse ${f.name}`, (size) => time(f.text(size), parse));
  for (const f of castFamilies) row(f.name, (size) => time(f.text(size), (t) => cast(t, basicType(f.type))));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) main();
