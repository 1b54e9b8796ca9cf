// Benchmark: failed signins take as long as a wrong password (issue #9 class 10). Prints the median time of each
// case, sampled interleaved, and the unknown / wrong ratio, which must lie within 0.8–1.25.
// Run: npm run bench (all) or node --import tsx bench/equal-time.ts

import os from "node:os";
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
function report(title: string, m: Record<string, number>, [a, b]: [string, string] = ["unknown", "wrong"]): void {
  for (const [name, ms] of Object.entries(m)) console.log(`${`${title}, ${name}`.padEnd(58)} ${ms.toFixed(2).padStart(9)} ms median`);
  const ratio = m[a]! / m[b]!;
  const ok = ratio >= RATIO_RANGE[0] && ratio <= RATIO_RANGE[1];
  console.log(`${`${title}, ${a} / ${b}`.padEnd(58)} ${ratio.toFixed(2).padStart(9)}    ${ok ? "within" : "OUTSIDE"} ${RATIO_RANGE.join("–")}`);
}

const fail = (p: Promise<unknown>) => p.then(
  () => "ok",
  () => "failed",
);

async function recordSignin(compat: 1 | 2): Promise<void> {
  const db = await SurqlAuth.open({ compat, import: [`examples/schema-v${compat}.surql`] });
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
  const db = await SurqlAuth.open({ root: { user: "root", pass: "root" } });
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

export async function benchEqualTime(): Promise<void> {
  console.log(`equal-time benchmark — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}`);
  await recordSignin(2);
  await recordSignin(1);
  await basicAuth();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEqualTime();
