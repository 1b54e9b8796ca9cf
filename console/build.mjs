// The admin console's build: console/src/main.ts bundled by esbuild into dist/console/app.js, with index.html and app.css.
// Run by `npm run build` (and so by `prepare`, i.e. `npm ci` / `npm install`); the server serves dist/console at GET /.

import { build } from "esbuild";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here("../dist/console/");

/** Write through a temporary name and rename: a server (or a test running beside this build) never reads half a file. */
function put(name, contents) {
  const tmp = `${out}.${name}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, out + name);
}

mkdirSync(out, { recursive: true });
const { outputFiles } = await build({
  entryPoints: [here("src/main.ts")],
  outfile: out + "app.js",
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
  write: false,
});
put("app.js", outputFiles[0].contents);
put("app.css", readFileSync(here("style.css")));
put("index.html", readFileSync(here("index.html")));
