// `npm run fuzz [-- --runs N] [--seed S] [--version 2.6.0|1.5.4] [--minutes M]`: the differential property,
// run long; prints each version's outcome and any counterexample as a ready-to-paste .surql reproduction.

import { parseArgs } from "node:util";
import { fuzzAgainst } from "./property.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "300" },
    seed: { type: "string" },
    version: { type: "string", multiple: true },
    minutes: { type: "string", default: "10" },
  },
});
const versions = (values.version ?? ["2.6.0", "1.5.4"]) as ("2.6.0" | "1.5.4")[];
let failed = false;
for (const version of versions) {
  const started = Date.now();
  const report = await fuzzAgainst(version, {
    runs: Number(values.runs),
    ...(values.seed ? { seed: Number(values.seed) } : {}),
    timeLimitMs: Number(values.minutes) * 60_000,
  });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (report.failure) {
    failed = true;
    process.stdout.write(`\n${version}: FAILED after ${secs}s\n${report.failure}\n`);
  } else {
    process.stdout.write(`${version}: ${report.runs} generated cases, no difference (seed ${report.seed}, ${secs}s)\n`);
  }
}
process.exit(failed ? 1 : 0);
