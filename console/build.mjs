// The admin console's build: console/src/main.ts bundled by esbuild into dist/console/app.js, with index.html and app.css.
// Run by `npm run build` (and so by `prepare`, i.e. `npm ci` / `npm install`); the server serves dist/console at GET /.

import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here("../dist/console/");

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [here("src/main.ts")],
  outfile: out + "app.js",
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(here("index.html"), out + "index.html");
copyFileSync(here("style.css"), out + "app.css");
