// `npm run fuzz:nonint [-- --runs N] [--seed S] [--minutes M] [--open CLASS …]`: the noninterference property, run
// long (default 2,000 cases, all classes); prints the shrunk counterexample as a .surql reproduction.

import { parseArgs } from "node:util";
import { ISSUE_CLASSES, type IssueClass } from "./classes.js";
import { checkNoninterference } from "./property.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "2000" },
    seed: { type: "string" },
    minutes: { type: "string", default: "30" },
    open: { type: "string", multiple: true },
  },
});
const open = (values.open ?? []) as IssueClass[];
for (const cls of open) if (!(cls in ISSUE_CLASSES)) throw new Error(`unknown class ${cls}; one of ${Object.keys(ISSUE_CLASSES).join(", ")}`);
const started = Date.now();
const report = await checkNoninterference({
  runs: Number(values.runs),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  timeLimitMs: Number(values.minutes) * 60_000,
  open,
});
const secs = ((Date.now() - started) / 1000).toFixed(1);
if (report.failure) process.stdout.write(`FAILED after ${secs}s\n${report.failure}\n`);
else process.stdout.write(`${report.runs} generated cases, noninterference held (seed ${report.seed}, ${secs}s${open.length ? `, open: ${open.join(", ")}` : ""})\n`);
process.exit(report.failure ? 1 : 0);
