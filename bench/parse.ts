// Benchmark: parse a generated 2,000-statement DEFINE schema repeatedly (ms per full parse, its phases, statements/s),
// then one query call that parses and executes it on a fresh engine (issue #11's import figure).
// Then the adversarial shapes of attack pass 3 (A4) at a record user's text limit: µs per item, ms per MiB, ms per text.
// It measures the compiled code in dist/ (what production runs; tsx's transform costs ≈ 10 %), building it first when a
// source under grammar/ or src/ is newer.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_CLIENT_QUERY_TEXT } from "../src/exec/query-text.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = (file: string): string => new URL(`../dist/${file}`, import.meta.url).href;

/** Newest modification time of the .ts files under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith(".ts")) t = Math.max(t, statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

/** Builds dist/ (tsc -p tsconfig.build.json) unless it is newer than every source under grammar/ and src/. */
function ensureBuilt(): void {
  let built = 0;
  try {
    built = statSync(path.join(root, "dist/grammar/index.js")).mtimeMs;
  } catch {
    // not built yet
  }
  if (built > Math.max(newest(path.join(root, "grammar")), newest(path.join(root, "src")))) return;
  console.log("building dist/ (tsc -p tsconfig.build.json) …");
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit" });
}

/** The compiled modules the benchmark runs. */
async function compiled() {
  ensureBuilt();
  return {
    ...((await import(dist("grammar/index.js"))) as typeof import("../grammar/index.js")),
    ...((await import(dist("grammar/lexer.js"))) as typeof import("../grammar/lexer.js")),
    ...((await import(dist("grammar/parser.js"))) as typeof import("../grammar/parser.js")),
    ...((await import(dist("grammar/to-ast.js"))) as typeof import("../grammar/to-ast.js")),
    ...((await import(dist("src/exec/datastore.js"))) as typeof import("../src/exec/datastore.js")),
    ...((await import(dist("src/exec/session.js"))) as typeof import("../src/exec/session.js")),
  };
}

/** `head` + `item`s joined by `sep` + `tail`, as many as fit in `bytes`. */
function filled(head: string, item: string, sep: string, tail: string, bytes: number): { text: string; items: number } {
  const items = Math.floor((bytes - head.length - tail.length + sep.length) / (item.length + sep.length));
  return { text: head + Array(items).fill(item).join(sep) + tail, items };
}

/** The shapes a record user may send, each filled to `bytes`. */
export function adversarialShapes(bytes: number): Record<string, { text: string; items: number }> {
  return {
    "record ids [t:1,…]": filled("RETURN [", "t:1", ",", "]", bytes),
    "1+1+…": filled("RETURN ", "1", "+", "", bytes),
    "RETURN 1;×N": filled("", "RETURN 1", ";", "", bytes),
    "[$a,…]": filled("RETURN [", "$a", ",", "]", bytes),
    "['a',…]": filled("RETURN [", "'a'", ",", "]", bytes),
    "[math::abs(1),…]": filled("RETURN [", "math::abs(1)", ",", "]", bytes),
    "[a.b.c,…]": filled("RETURN [", "a.b.c", ",", "]", bytes),
  };
}

/** Best of `runs` parses of each shape at the client text limit (best: the machine is shared). */
function benchShapes(parse: (text: string) => unknown, runs = 15): void {
  console.log(`adversarial shapes at the record-user text limit (${MAX_CLIENT_QUERY_TEXT / 1024} KiB), best of ${runs}:`);
  for (const [name, { text, items }] of Object.entries(adversarialShapes(MAX_CLIENT_QUERY_TEXT))) {
    parse(text);
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      parse(text);
      best = Math.min(best, performance.now() - t0);
    }
    const perItem = ((best * 1000) / items).toFixed(2);
    const perMiB = Math.round((best * 1024 * 1024) / text.length);
    console.log(`  ${name.padEnd(20)} ${best.toFixed(1).padStart(6)} ms  ${perItem.padStart(5)} µs/item  ${String(perMiB).padStart(5)} ms/MiB`);
  }
}

/** A schema like a real application's: tables, typed fields with asserts and permissions, indexes, users, accesses. */
export function generateSchema(statements = 2000): string {
  const out: string[] = [];
  for (let t = 0; out.length < statements; t++) {
    out.push(`DEFINE TABLE IF NOT EXISTS table_${t} SCHEMAFULL PERMISSIONS FOR select WHERE owner = $auth.id OR $auth.admin = true, FOR create, update WHERE owner = $auth.id FOR delete NONE COMMENT 'table ${t}'`);
    out.push(`DEFINE FIELD owner ON table_${t} TYPE record<user> DEFAULT $auth.id READONLY PERMISSIONS FOR update NONE`);
    out.push(`DEFINE FIELD email ON TABLE table_${t} TYPE string ASSERT string::is::email($value) AND string::len($value) < 255 VALUE string::lowercase($value)`);
    out.push(`DEFINE FIELD tags[*] ON table_${t} TYPE option<array<string, 10>> DEFAULT [] PERMISSIONS FULL`);
    out.push(`DEFINE FIELD meta.created ON table_${t} TYPE datetime VALUE $before OR time::now() DEFAULT ALWAYS time::now()`);
    out.push(`DEFINE FIELD amount ON table_${t} TYPE number | decimal ASSERT $value >= 0 AND $value <= 1000000.5f`);
    out.push(`DEFINE INDEX idx_email_${t} ON table_${t} FIELDS email, owner UNIQUE`);
    out.push(`DEFINE USER user_${t} ON DATABASE PASSHASH '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA' ROLES EDITOR, VIEWER DURATION FOR TOKEN 1h, FOR SESSION 12h`);
    out.push(`DEFINE ACCESS access_${t} ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email, pass = crypto::argon2::generate($pass)) SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass)) WITH JWT ALGORITHM HS512 KEY 'secret-${t}' AUTHENTICATE { IF $auth.enabled { RETURN $auth } ELSE { THROW 'disabled' } } DURATION FOR TOKEN 15m, FOR SESSION 1d`);
    out.push(`DEFINE EVENT audit_${t} ON table_${t} WHEN $before != $after THEN (CREATE audit SET table = 'table_${t}', at = time::now(), diff = $after)`);
  }
  return out.slice(0, statements).join(";\n") + ";\n";
}

/**
 * Best and median wall time of `runs` timings of `fn` (after `warm` unmeasured runs), and the best process CPU time
 * (the machine is shared: under load, CPU time is the steadier figure).
 */
async function timed(runs: number, warm: number, fn: () => unknown): Promise<{ best: number; median: number; cpu: number }> {
  for (let i = 0; i < warm; i++) await fn();
  const times: number[] = [];
  let cpu = Infinity;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(runs / 2)], cpu };
}

const ms = (t: { best: number; median: number; cpu: number }): string => `best ${t.best.toFixed(1)} ms, median ${t.median.toFixed(1)} ms, CPU best ${t.cpu.toFixed(1)} ms`;

export async function main(): Promise<void> {
  const { parse, tokenize, parser, AstBuilder, Datastore, newSession } = await compiled();
  const text = generateSchema(2000);
  const count = parse(text).length;
  const root = () => newSession({ ns: "app", db: "app", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} (${os.cpus().length} cpus), node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`schema: ${count} statements, ${(text.length / 1024).toFixed(0)} KiB; compiled code (dist/)`);
  // 1. parse alone, and its phases (tokens, CST, AST)
  const whole = await timed(20, 5, () => parse(text));
  console.log(`parse: ${ms(whole)} per full parse (20 warm runs); ${Math.round((count / whole.median) * 1000).toLocaleString("en-US")} statements/s (median)`);
  const tokens = tokenize(text).tokens;
  const lex = await timed(20, 3, () => tokenize(text));
  const cst = await timed(20, 3, () => {
    parser.input = tokens;
    return parser.query();
  });
  parser.input = tokens;
  const tree = parser.query();
  const ast = await timed(20, 3, () => new AstBuilder(text).query(tree));
  console.log(`  phases (whole-query CST): lex ${lex.best.toFixed(1)} ms, CST ${cst.best.toFixed(1)} ms, AST ${ast.best.toFixed(1)} ms (best; CPU ${lex.cpu.toFixed(1)} / ${cst.cpu.toFixed(1)} / ${ast.cpu.toFixed(1)} ms)`);
  // 2. one query call on a fresh engine: parse and execute (catalog writes on the memory store)
  const both = await timed(10, 2, () => new Datastore().execute(text, root()));
  const stmts = parse(text);
  const exec = await timed(10, 2, () => new Datastore().execute(stmts, root()));
  console.log(`parse + execute (one query call, fresh engine): ${ms(both)}; ${Math.round((count / both.median) * 1000).toLocaleString("en-US")} statements/s (median)`);
  console.log(`  execute alone (the statements parsed beforehand): ${ms(exec)}`);
  benchShapes(parse);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) await main();
