// Dev tool (not a test): where a behaviour file's compat-N answers were recorded from SurrealDB but we are deliberately
// stricter, replace that compat's expectation block of each differing step with our engine's answers.
// Usage: node --import tsx test/language/tools/adopt-ours.ts test/language/cases/FILE.surql COMPAT
import { readFileSync, writeFileSync } from "node:fs";
import { Datastore } from "../../../src/exec/datastore.js";
import { toJson } from "../../../src/value/index.js";
import { expectationsFor, parseLanguageFile, systemUserDefinition } from "../format.js";
import { sessionFor } from "../sessions.js";

const [file, compatText] = process.argv.slice(2);
const compat = Number(compatText) as 1 | 2;
const text = readFileSync(file!, "utf8");
const spec = parseLanguageFile(text);
const ds = new Datastore({ compat, allowGuests: true });
const defined = new Set<string>();
const replace = new Map<number, string[]>();
for (const [i, step] of spec.steps.entries()) {
  if (step.as.kind === "system") {
    const user = systemUserDefinition(step.as.level, step.as.role);
    if (!defined.has(user.name)) {
      defined.add(user.name);
      await ds.execute(user.text, sessionFor({ kind: "root" }, compat));
    }
  }
  const expected = expectationsFor(step, compat);
  if (!expected) continue;
  const rs = await ds.execute(step.query, sessionFor(step.as, compat));
  const lines = rs.map((r, j) => (r.status === "ERR" ? `err ${r.result}` : "okAny" in (expected[j] ?? {}) ? "ok ~" : `ok ${JSON.stringify(toJson(r.result, { compat }))}`));
  const same = JSON.stringify(lines.map((l) => (l.startsWith("err ") ? { err: l.slice(4) } : l === "ok ~" ? { okAny: true } : { ok: JSON.parse(l.slice(3)) }))) === JSON.stringify(expected);
  if (!same) replace.set(i, lines);
}
// rewrite: the steps are `=== as` blocks; each keeps its query and gets per-compat blocks where it changed
const blocks = text.split(/^(?==== as )/m);
const out = [blocks[0]!];
blocks.slice(1).forEach((block, i) => {
  const ours = replace.get(i);
  if (!ours) return out.push(block);
  const [query, ...rest] = block.split(/^(?=---)/m);
  const other = compat === 1 ? 2 : 1;
  const shared = rest.find((b) => /^---\s*$/m.test(b.split("\n")[0]!));
  const kept = rest.filter((b) => b.startsWith(`--- compat ${other}`));
  const otherBlock = kept[0] ?? (shared && spec.compat.includes(other) ? shared.replace(/^---.*$/m, `--- compat ${other}`) : undefined);
  const ending = /\n*$/.exec(block)![0];
  out.push(query + `--- compat ${compat}\n` + ours.join("\n") + "\n" + (otherBlock ? otherBlock.replace(/\n*$/, "\n") : "").replace(/\n$/, "") + ending);
});
writeFileSync(file!, out.join(""));
console.log(`${file}: ${replace.size} step(s) adopted for compat ${compat}`);
