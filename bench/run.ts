// `npm run bench`: every benchmark in bench/, one after the other. Figures go in the README with the machine.

import { existsSync } from "node:fs";
import { benchAuth } from "./auth.js";

const parseBench = new URL("./parse.ts", import.meta.url);
if (existsSync(parseBench)) {
  await import(parseBench.href);
  console.log();
}
await benchAuth();
process.exit(0);
