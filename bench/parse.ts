// Benchmark: parse a generated 2,000-statement DEFINE schema repeatedly; prints statements/s and ms per full parse.
import os from "node:os";
import { parse } from "../grammar/index.js";

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

export function main(): void {
  const text = generateSchema(2000);
  const count = parse(text).length;
  for (let i = 0; i < 5; i++) parse(text); // warm-up
  const runs = 20;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    parse(text);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(runs / 2)];
  const best = times[0];
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} (${os.cpus().length} cpus), node ${process.version}`);
  console.log(`schema: ${count} statements, ${(text.length / 1024).toFixed(0)} KiB`);
  console.log(`parse: median ${median.toFixed(1)} ms, best ${best.toFixed(1)} ms per full parse (${runs} warm runs)`);
  console.log(`throughput: ${Math.round((count / median) * 1000).toLocaleString("en-US")} statements/s (median)`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) main();
