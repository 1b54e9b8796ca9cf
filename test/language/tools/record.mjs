// Dev tool (not a test): fills the expectations of a behaviour file from the SurrealDB oracle.
// Usage: node test/language/tools/record.mjs test/language/cases/FILE.surql [ORACLE_DIR]
// Rewrites the file in place with `---` (or `--- compat N` when versions differ) blocks.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2];
// argon2id of "p"; the runner defines the same users (format.ts systemUserDefinition)
const HASH = "$argon2id$v=19$m=19456,t=2,p=1$o8K9r9XbITlv8J64AekxaQ$ykN9pxKuInrMUsPWp+vC5A/l8MzrfF/SV8hfbCnwYrA";
const oracleDir = process.argv[3] ?? "/work/shared/oracle";
const text = readFileSync(file, "utf8");

const header = [];
const steps = [];
let cur;
for (const raw of text.split("\n")) {
  const as = /^=== as (.+)$/.exec(raw);
  if (as) {
    cur = { as: as[1].trim(), query: [], inExpect: false };
    steps.push(cur);
    continue;
  }
  if (!cur) {
    header.push(raw);
    continue;
  }
  if (/^---/.test(raw)) cur.inExpect = true;
  else if (!cur.inExpect) cur.query.push(raw);
}
const compatLine = header.find((l) => l.startsWith("-- compat:"));
const compats = compatLine ? compatLine.slice(10).trim().split(/\s+/).map(Number) : [2];

function oracleSteps(compat) {
  const out = [];
  const defined = new Set();
  const signinRoot = () => out.push({ method: "signin", params: [{ user: "root", pass: "root" }] }, { method: "use", params: ["test", "test"] });
  for (const s of steps) {
    const sys = /^(ns|db):(\w+)$/i.exec(s.as);
    const rec = /^record\s+(.+)$/.exec(s.as);
    if (sys) {
      const level = sys[1].toLowerCase();
      const role = sys[2].toUpperCase();
      const name = `${level}_${role.toLowerCase()}`;
      if (!defined.has(name)) {
        defined.add(name);
        signinRoot();
        out.push({ method: "query", params: [`DEFINE USER ${name} ON ${level === "ns" ? "NAMESPACE" : "DATABASE"} PASSHASH '${HASH}' ROLES ${role}`], hidden: true });
      }
      const creds = level === "ns" ? { NS: "test", user: name, pass: "p" } : { NS: "test", DB: "test", user: name, pass: "p" };
      out.push({ method: "signin", params: [creds] }, { method: "use", params: ["test", "test"] });
    } else if (rec) {
      out.push({ method: "signin", params: [{ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", rid: rec[1] }] });
    } else if (s.as === "guest") {
      out.push({ method: "invalidate" }, { method: "use", params: ["test", "test"] });
    } else signinRoot();
    out.push({ method: "query", params: [s.query.join("\n").trim()], step: s });
  }
  return out;
}

function runOracle(compat) {
  const plan = oracleSteps(compat);
  const json = JSON.stringify(plan.map(({ method, params }) => (params ? { method, params } : { method })));
  const tmp = `/tmp/record-${process.pid}-${compat}.json`;
  writeFileSync(tmp, json);
  const version = compat === 1 ? "1.5.4" : "2.6.0";
  const lines = execFileSync("node", [`${oracleDir}/oracle.mjs`, "--version", version, tmp], { encoding: "utf8", maxBuffer: 1 << 26 })
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const results = new Map();
  plan.forEach((p, i) => {
    const line = lines[i];
    if (p.method === "signin" && line.error) throw new Error(`signin failed (compat ${compat}) for ${JSON.stringify(p.params)}: ${line.error}`);
    if (!p.step) return;
    if (line.error) results.set(p.step, [`# query error: ${line.error.replace(/\n/g, " ")}`]);
    else results.set(p.step, line.result.map((r) => (r.status === "OK" ? `ok ${JSON.stringify(r.result)}` : `err ${r.result}`)));
  });
  return results;
}

const byCompat = new Map(compats.map((c) => [c, runOracle(c)]));
const out = [...header];
while (out.length && out[out.length - 1] === "") out.pop();
for (const s of steps) {
  out.push("", `=== as ${s.as}`, ...s.query.filter((l, i, a) => !(l === "" && i === a.length - 1)));
  const lists = compats.map((c) => byCompat.get(c).get(s));
  const same = lists.every((l) => JSON.stringify(l) === JSON.stringify(lists[0]));
  if (same) out.push("---", ...lists[0]);
  else compats.forEach((c, i) => out.push(`--- compat ${c}`, ...lists[i]));
}
writeFileSync(file, `${out.join("\n")}\n`);
console.log(`recorded ${steps.length} steps for compat ${compats.join(", ")}`);
