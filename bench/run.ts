// `npm run bench`: every benchmark in bench/, one after the other. Figures go in the README with the machine.

import { main as benchAdversarial } from "./adversarial.js";
import { benchAuth } from "./auth.js";
import { benchCatalogLoad } from "./catalog-load.js";
import { benchConcurrency } from "./concurrency.js";
import { benchDenials } from "./denials.js";
import { benchEqualTime } from "./equal-time.js";
import { benchImportMemory } from "./import-memory.js";
import { benchKv } from "./kv.js";
import { main as benchParse } from "./parse.js";
import { benchPostgres } from "./postgres.js";
import { benchRss } from "./rss.js";
import { benchStringHeap } from "./string-heap.js";

await benchParse();
console.log();
await benchAuth();
console.log();
await benchAdversarial();
console.log();
await benchEqualTime();
console.log();
await benchCatalogLoad();
console.log();
await benchStringHeap();
console.log();
await benchKv();
console.log();
await benchConcurrency();
console.log();
await benchDenials();
console.log();
await benchRss("file");
console.log();
await benchImportMemory();
console.log();
await benchPostgres();
process.exit(0);
