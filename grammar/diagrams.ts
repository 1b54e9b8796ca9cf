// Railroad diagrams of the grammar (npm run diagrams → grammar/diagrams.html), generated from the parser's serialized GAST.
import { createSyntaxDiagramsCode } from "chevrotain";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parser } from "./parser.js";

const out = fileURLToPath(new URL("./diagrams.html", import.meta.url));
writeFileSync(out, createSyntaxDiagramsCode(parser.getSerializedGastProductions()));
console.log(`wrote ${out}`);
