// Benchmark: failed signins take as long as a wrong password (issue #9 class 10). Prints the median time of each
// case, sampled interleaved, and the unknown / wrong ratio, which must lie within 0.8–1.25.
// Run: npm run bench (all) or node --import tsx bench/equal-time.ts

import os from "node:os";
import argon2 from "argon2";
import bcrypt from "bcryptjs";
import { SurqlAuth } from "../src/index.js";

const ROUNDS = 40;
const RATIO_RANGE = [0.8, 1.25] as const;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs every case once per round, in turn (so machine load hits them alike); returns each case's median ms. */
async function medians(cases: Record<string, () => Promise<unknown>>, rounds = ROUNDS): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (const op of Object.values(cases)) await op(); // warm-up
  for (let i = 0; i < rounds; i++) {
    for (const [name, op] of Object.entries(cases)) {
      const start = performance.now();
      await op();
      times[name]!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** Prints each median and the ratio of the two failures that must not be told apart. */
function report(title: string, m: Record<string, number>, [a, ...bs]: string[] = ["unknown", "wrong"]): void {
  for (const [name, ms] of Object.entries(m)) console.log(`${`${title}, ${name}`.padEnd(58)} ${ms.toFixed(2).padStart(9)} ms median`);
  for (const b of bs) {
    const ratio = m[a!]! / m[b]!;
    const ok = ratio >= RATIO_RANGE[0] && ratio <= RATIO_RANGE[1];
    console.log(`${`${title}, ${a} / ${b}`.padEnd(58)} ${ratio.toFixed(2).padStart(9)}    ${ok ? "within" : "OUTSIDE"} ${RATIO_RANGE.join("–")}`);
  }
}

const fail = (p: Promise<unknown>) => p.then(
  () => "ok",
  () => "failed",
);

async function recordSignin(compat: 1 | 2): Promise<void> {
  const db = await SurqlAuth.open({ compat, import: [`examples/schema-v${compat}.surql`], throttle: { enabled: false } });
  const target = compat === 1 ? { NS: "app", DB: "app", SC: "account" } : { NS: "app", DB: "app", AC: "account" };
  await db.connect().signup({ ...target, name: "Ann", email: "ann@example.com", password: "pw-ann" });
  const signin = (email: string, password: string) => fail(db.connect().signin({ ...target, email, password }));
  report(
    `record signin, compat ${compat}`,
    await medians({
      right: () => signin("ann@example.com", "pw-ann"),
      wrong: () => signin("ann@example.com", "pw-bob"),
      unknown: () => signin("bob@example.com", "pw-ann"),
    }),
  );
  // SIGNUP hashes before the unique index refuses a taken email, so a refusal costs what a success does.
  let n = 0;
  const signup = (email: string) => fail(db.connect().signup({ ...target, name: "X", email, password: "pw" }));
  report(
    `record signup, compat ${compat}`,
    await medians({ new: () => signup(`new${n++}@example.com`), taken: () => signup("ann@example.com") }),
    ["taken", "new"],
  );
}

async function basicAuth(): Promise<void> {
  const db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, throttle: { enabled: false } });
  const { server, host, port } = await db.listen("127.0.0.1", 0);
  const request = (user: string, pass: string) =>
    fetch(`http://${host}:${port}/sql`, {
      method: "POST",
      body: "RETURN 1",
      headers: { accept: "application/json", authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` },
    }).then((r) => r.text());
  report(
    "HTTP Basic, root user",
    await medians({ right: () => request("root", "root"), wrong: () => request("root", "wrong"), unknown: () => request("ghost", "root") }),
  );
  await server.close();
}

/** Attack pass 7, E9: stored hashes of another algorithm or a cheaper cost than the dummy's (compat 2). */
async function otherHashes(): Promise<void> {
  const db = await SurqlAuth.open({ compat: 2, root: { user: "root", pass: "root" }, throttle: { enabled: false } });
  const cheapArgon2 = await argon2.hash("pw", { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  await db.importText(`DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE op2 SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE ACCESS mix ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM op2 WHERE email = $email AND
  ((string::starts_with(h, '$2') AND crypto::bcrypt::compare(h, $password)) OR
   (string::starts_with(h, '$argon2') AND crypto::argon2::compare(h, $password)))) DURATION FOR TOKEN 5m;
DEFINE ACCESS one ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM op2 WHERE email = $email AND crypto::bcrypt::compare(h, $password)) DURATION FOR TOKEN 5m;
CREATE op2:1 SET email = 'legacy@x', h = crypto::bcrypt::generate('pw');
CREATE op2:2 SET email = 'modern@x', h = crypto::argon2::generate('pw');
CREATE op2:3 SET email = 'cheap@x', h = '${bcrypt.hashSync("pw", 4)}';
DEFINE USER cheapsys ON ROOT PASSHASH '${cheapArgon2}' ROLES VIEWER;`);
  const signin = (ac: string, email: string) => fail(db.connect().signin({ NS: "app", DB: "app", AC: ac, email, password: "wrong" }));
  report(
    "bcrypt → argon2 migration clause, wrong password",
    await medians({ unknown: () => signin("mix", "ghost@x"), argon2: () => signin("mix", "modern@x"), bcrypt: () => signin("mix", "legacy@x") }, 12),
    ["unknown", "argon2", "bcrypt"],
  );
  report("bcrypt clause, imported cost-4 hash", await medians({ unknown: () => signin("one", "ghost@x"), cheap: () => signin("one", "cheap@x") }, 12), ["unknown", "cheap"]);
  const user = (name: string) => fail(db.connect().signin({ user: name, pass: "wrong" }));
  report("system user, imported cheap argon2 PASSHASH", await medians({ unknown: () => user("ghost"), cheap: () => user("cheapsys"), normal: () => user("root") }), ["unknown", "cheap", "normal"]);
}

/**
 * Attack passes 11 and 12 (I2, J6): the right password by a fresh spelling of a login whose account is locked — its
 * hash held back (a dummy verify), or its record held back after a verify (the hash kept in a linked record) — and a
 * wrong password for an unlocked account (whose shadow run names it), against an unknown login.
 */
export async function heldBack(compat: 1 | 2): Promise<void> {
  const db = await SurqlAuth.open({ compat, throttle: { signinMaxFailures: 3, backoffAfter: 0, ipMaxAttempts: 0 } });
  const clauses = {
    slug: "SELECT * FROM acct WHERE login = string::slug($login) AND crypto::argon2::compare(pass, $pass)",
    linked: "SELECT * FROM acct WHERE login = string::slug($login) AND crypto::argon2::compare(vault.pass, $pass)",
  };
  const define = ([name, clause]: [string, string]) =>
    compat === 1 ? `DEFINE SCOPE ${name} SESSION 5m SIGNIN (${clause});` : `DEFINE ACCESS ${name} ON DATABASE TYPE RECORD SIGNIN (${clause}) DURATION FOR TOKEN 5m;`;
  await db.importText(`DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE acct SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
${Object.entries(clauses).map(define).join("\n")}
CREATE acct:1 SET login = 'bob', pass = crypto::argon2::generate('right');
CREATE vault:1 SET pass = crypto::argon2::generate('right');
CREATE acct:2 SET login = 'eve', vault = vault:1, pass = crypto::argon2::generate('other');
${Array.from({ length: ROUNDS + 1 }, (_, i) => `CREATE acct:${101 + i} SET login = 'u${i + 1}', pass = crypto::argon2::generate('right');`).join("\n")}`);
  const signin = (ac: string, login: string, pass: string) => fail(db.connect().signin({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: ac, login, pass }));
  for (let i = 0; i < 3; i++) await signin("slug", "bob", "wrong");
  for (let i = 0; i < 3; i++) await signin("linked", "eve", "wrong");
  // every try a fresh spelling (its own selector bucket): "Bob!", "Bob!!" … and "Gh!", "Gh!!" … for an unknown login
  let n = 0;
  report(
    `locked hash by another spelling, compat ${compat}`,
    await medians({ unknown: () => signin("slug", `Gh${"!".repeat(++n)}`, "right"), held: () => signin("slug", `Bob${"!".repeat(n)}`, "right"), wrong: () => signin("slug", `u${n}`, "wrong") }),
    ["unknown", "held", "wrong"],
  );
  n = 0;
  report(
    `locked record (hash in a linked record), compat ${compat}`,
    await medians({ unknown: () => signin("linked", `Gh${"!".repeat(++n)}`, "right"), held: () => signin("linked", `Eve${"!".repeat(n)}`, "right") }),
    ["unknown", "held"],
  );
}

export async function benchEqualTime(): Promise<void> {
  console.log(`equal-time benchmark — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}`);
  await recordSignin(2);
  await recordSignin(1);
  await basicAuth();
  await otherHashes();
  await heldBack(2);
  await heldBack(1);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEqualTime();
