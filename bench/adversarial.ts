// Benchmark: hostile client text (unterminated tokens, long digit runs before a bad character, deep nesting, casts of
// huge strings) at 256 KiB, 512 KiB and 1 MiB; prints ms per MiB for each family, which stays flat when handling is
// linear. The families are shared with test/grammar/adversarial.test.ts and test/value/cast-adversarial.test.ts.
import os from "node:os";
import { parse } from "../grammar/index.js";
import type { BasicTypeName, TypeKind } from "../src/ast/nodes.js";
import { callBuiltin } from "../src/exec/functions/index.js";
import { newSession } from "../src/exec/session.js";
import { cast } from "../src/value/cast.js";
import type { Value } from "../src/value/types.js";
import { encodeCbor } from "../src/server/codec/cbor.js";
import { decodeRpcMessage } from "../src/server/codec/index.js";
import { defaultLimits } from "../src/server/types.js";

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

/** Functions that read client text (parse::, string::is::, type:: conversions, string::trim …). */
export const textFunctions: readonly string[] = (
  "parse::email::host parse::email::user parse::url::domain parse::url::fragment parse::url::host parse::url::path " +
  "parse::url::port parse::url::query parse::url::scheme string::is::alpha string::is::alphanum string::is::ascii " +
  "string::is::datetime string::is::domain string::is::email string::is::hexadecimal string::is::ip string::is::latitude " +
  "string::is::longitude string::is::numeric string::is::record string::is::semver string::is::ulid string::is::url " +
  "string::is::uuid string::lowercase string::uppercase string::reverse string::slug string::trim string::words " +
  "type::bool type::datetime type::decimal type::duration type::float type::int type::number type::thing type::table type::uuid"
).split(" ");

/** Hostile arguments for them: long runs of the characters each validator splits or backtracks on. */
export const textInputs: readonly { readonly name: string; readonly text: (size: number) => string }[] = [
  { name: "1111…x", text: (n) => fill("1", n, "", "x") },
  { name: "a.a.…!", text: (n) => fill("a.", n, "", "!") },
  { name: "a@a@…", text: (n) => fill("a@", n) },
  { name: "aaa…@b.b.…", text: (n) => fill("b.", n / 2, fill("a", n / 2) + "@") },
  { name: "a   …b", text: (n) => fill(" ", n, "a", "b") },
  { name: "a---…!", text: (n) => fill("-", n, "a", "!") },
  { name: "a:a:…", text: (n) => fill("a:", n) },
  { name: "http://aaa…/%%…", text: (n) => fill("%", n / 2, fill("a", n / 2, "http://") + "/") },
  { name: "1.1.1-1.1.…!", text: (n) => fill("1.", n, "1.1.1-", "!") },
  { name: "fff…g", text: (n) => fill("f", n, "", "g") },
  { name: "datetime fraction…x", text: (n) => fill("1", n, "2020-01-01T00:00:00.", "x") },
  { name: "1:1:…", text: (n) => fill("1:", n) },
];

/** `string::is::datetime(text, format)` with a format as long as the text: one field per name or number. */
export const datetimeFormats: readonly { readonly name: string; readonly text: (size: number) => string; readonly format: (size: number) => string }[] = [
  { name: "%b%b… on janjan…", text: (n) => fill("jan", n), format: (n) => fill("%b", (n * 2) / 3) },
  { name: "%A%A… on mondaymonday…", text: (n) => fill("monday", n), format: (n) => fill("%A", n / 3) },
  { name: "%m%m… on 1111…", text: (n) => fill("1", n), format: (n) => fill("%m", n * 2) },
];

/** Hostile RPC frames of about `size` bytes (attack pass 3, A7): each is decoded, or refused, with the frame limits. */
export const frameFamilies: readonly { readonly name: string; readonly frame: (size: number) => string | Uint8Array }[] = [
  { name: "json {k0:1,k1:1,…}", frame: (n) => rpcJson(`{${Array.from({ length: Math.floor(n / 11) }, (_, i) => `"k${i}":1`).join(",")}}`) },
  { name: 'json {"a":1,"a":1,…}', frame: (n) => rpcJson(`{${fill('"a":1,', n)}"a":1}`) },
  { name: "json [1,1,…]", frame: (n) => rpcJson(`[${fill("1,", n)}1]`) },
  { name: "json [[],[],…]", frame: (n) => rpcJson(`[${fill("[],", n)}[]]`) },
  { name: 'json ["a:1",…]', frame: (n) => rpcJson(`[${fill('"a:1",', n)}"a:1"]`) },
  { name: 'json ["2020-01-01T…",…]', frame: (n) => rpcJson(`[${fill('"2020-01-01T00:00:00Z",', n)}1]`) },
  { name: 'json "\\u0041…"', frame: (n) => rpcJson(`"${fill("\\u0041", n)}"`) },
  { name: "cbor {k0:1,…}", frame: (n) => rpcCbor(Object.fromEntries(Array.from({ length: Math.floor(n / 8) }, (_, i) => [`k${i}`, 1n]))) },
  { name: "cbor [0,0,…]", frame: (n) => rpcCbor(Array.from({ length: n }, () => 0n)) },
  { name: "cbor [[],[],…]", frame: (n) => rpcCbor(Array.from({ length: n }, () => [])) },
];

function rpcJson(param: string): string {
  return `{"id":1,"method":"ping","params":[${param}]}`;
}

function rpcCbor(param: Value): Uint8Array {
  return encodeCbor({ id: 1n, method: "ping", params: [param] });
}

/** Milliseconds `handle` takes on `text` (errors are expected and ignored). */
async function time(text: string, handle: (text: string) => unknown): Promise<number> {
  const t0 = performance.now();
  try {
    await handle(text);
  } catch {
    // the families are errors by design
  }
  return performance.now() - t0;
}

export async function main(): Promise<void> {
  const sizes = [MiB / 4, MiB / 2, MiB];
  const row = async (name: string, run: (size: number) => Promise<number>): Promise<void> => {
    await run(MiB / 16); // warm-up
    const cells: string[] = [];
    for (const size of sizes) cells.push(`${(((await run(size)) * MiB) / size).toFixed(0).padStart(6)}`);
    console.log(`${name.padEnd(32)}${cells.join("")}`);
  };
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} (${os.cpus().length} cpus), node ${process.version}`);
  console.log(`adversarial input, ms per MiB of text at ${sizes.map((s) => `${s / 1024} KiB`).join(", ")} (flat = linear)`);
  for (const f of parseFamilies) await row(`parse ${f.name}`, (size) => time(f.text(size), parse));
  for (const f of castFamilies) await row(f.name, (size) => time(f.text(size), (t) => cast(t, basicType(f.type))));
  const ctx = { session: newSession({}), compat: 2 as const, clock: { now: () => Date.now() } };
  for (const f of datetimeFormats) {
    await row(`is::datetime ${f.name}`, (size) => time(f.text(size), (t) => callBuiltin("string::is::datetime", [t, f.format(size)], ctx)));
  }
  // RPC frames at each identity kind's limits (bytes, values): ms per frame, refused or decoded
  const kinds = [
    { name: "anonymous", bytes: defaultLimits.preAuthPayload, values: defaultLimits.preAuthValues },
    { name: "record user", bytes: defaultLimits.clientPayload, values: defaultLimits.recordValues },
    { name: "system user", bytes: defaultLimits.wsMaxPayload, values: defaultLimits.maxValues },
  ];
  console.log(`RPC frame decoding (refused or decoded), wall / CPU ms per frame at ${kinds.map((k) => `${k.name} (${k.bytes / 1024} KiB, ${k.values} values)`).join(", ")}`);
  for (const f of frameFamilies) {
    const cells: string[] = [];
    for (const k of kinds) {
      const frame = f.frame(k.bytes - 64);
      const format = typeof frame === "string" ? "json" : "cbor";
      const cpu0 = process.cpuUsage();
      const wall = await time("", () => decodeRpcMessage(format, frame, 2, k.values));
      const cpu = process.cpuUsage(cpu0);
      cells.push(`${wall.toFixed(1).padStart(8)} /${((cpu.user + cpu.system) / 1000).toFixed(1).padStart(6)}`);
    }
    console.log(`${f.name.padEnd(32)}${cells.join("")}`);
  }
  // functions: the slowest input at each size
  for (const name of textFunctions) {
    await row(name, async (size) => {
      let worst = 0;
      for (const i of textInputs) worst = Math.max(worst, await time(i.text(size), (t) => callBuiltin(name, [t], ctx)));
      return worst;
    });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) await main();
