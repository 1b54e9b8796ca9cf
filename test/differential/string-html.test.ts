// Differential properties: string::html::sanitize gives SurrealDB 2.6.0's answer on generated HTML fragments (allowed
// and disallowed tags in any case and nesting, attributes with quotes and entities, URLs of every kind), and
// string::html::encode on text made of every character it escapes.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "../../src/exec/functions/html.js";
import { callBuiltin } from "../../src/exec/functions/index.js";
import { makeCtx } from "../exec/functions/helpers.js";
import { openSurreal } from "./harness/surreal.js";

const TAGS = ["a", "b", "i", "p", "div", "span", "img", "br", "hr", "table", "tr", "td", "th", "li", "ul", "ol", "pre",
  "q", "bdo", "col", "area", "script", "style", "iframe", "svg", "math", "mi", "foreignObject", "template", "textarea",
  "noscript", "xmp", "title", "select", "option", "form", "custom-el", "font", "line", "tfoot", "h1", "blockquote", "em",
  "nobr", "caption", "colgroup", "tbody", "body", "html", "head", "input", "button", "object", "marquee", "desc", "mtext",
  "annotation-xml", "image", "listing", "plaintext", "frameset", "dd", "dt", "h2", "keygen", "selectedcontent", "search"];
const ATTRS = ["href", "src", "title", "lang", "class", "id", "onclick", "style", "dir", "cite", "alt", "width", "rel",
  "start", "span", "colspan", "scope", "datetime", "xlink:href"];
const VALUES = ["x", "http://a.b/c?d=e&f", "javascript:alert(1)", "JaVaScRiPt:x", " java\tscript:x", "/rel", "//host/p",
  "#f", "?q", "data:text/html,<b>", "mailto:a@b", "HTTPS://X", "http://", "https://a b", "ftp://h", "tel:1", "&amp;",
  "&quot;\"'", "a<b>c", "\u00a0", "vbscript:x", "irc:x", "url:x", ":x", "a:b"];
const TEXTS = ["t", " ", "&", "&amp;", "&lt;", "<", ">", "\"", "'", "\u00a0", "&nbsp;", "&#x3c;", "\n", "é", "<!-- c -->",
  "<![CDATA[x]]>", "<!DOCTYPE html>", "</p>", "</b>", "</x>", "<", "&#0;"];

const attribute = fc.tuple(fc.constantFrom(...ATTRS), fc.constantFrom(...VALUES), fc.constantFrom('"', "'", ""), fc.boolean()).map(
  ([name, value, q, upper]) => {
    const n = upper ? name.toUpperCase() : name;
    const quoted = q === "" ? value.replace(/[\s"'=<>`]/g, "") : value.replaceAll(q, "");
    return ` ${n}=${q}${quoted}${q}`;
  },
);
const open = fc.tuple(fc.constantFrom(...TAGS), fc.array(attribute, { maxLength: 3 }), fc.boolean()).map(
  ([tag, attrs, upper]) => `<${upper ? tag.toUpperCase() : tag}${attrs.join("")}>`,
);
const close = fc.constantFrom(...TAGS).map((t) => `</${t}>`);
const fragment = fc.array(fc.oneof(open, close, fc.constantFrom(...TEXTS)), { maxLength: 14 }).map((parts) => parts.join(""));

let engine: ReturnType<typeof openSurreal> | undefined;

/** SurrealDB 2.6.0's `name` function applied to each input, in one query. */
async function theirs(name: string, inputs: string[]): Promise<string[]> {
  const real = await (engine ??= openSurreal("2.6.0"));
  const out = await real.rpc("query", [`RETURN array::map($xs, |$s| ${name}($s))`, { xs: inputs }]);
  if (!out.ok) throw new Error(out.message);
  const [first] = out.value as { result: unknown; status: string }[];
  if (first?.status !== "OK") throw new Error(String(first?.result));
  return first.result as string[];
}

describe("string::html against SurrealDB 2.6.0", () => {
  it("sanitize answers as SurrealDB on generated fragments", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { minLength: 1, maxLength: 40 }), async (inputs) => {
        const real = await theirs("string::html::sanitize", inputs);
        inputs.forEach((input, i) => expect([input, sanitizeHtml(input)]).toEqual([input, real[i]]));
      }),
      { numRuns: 40 },
    );
  }, 120_000);
  it("encode answers as SurrealDB on text of every escaped character", async () => {
    const text = fc.array(fc.constantFrom(..."<>\"'`/&= \t\n\f\r\u000b\u00a0aé日;#"), { maxLength: 12 }).map((cs) => cs.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 40 }), async (inputs) => {
        const real = await theirs("string::html::encode", inputs);
        for (const [i, input] of inputs.entries()) {
          expect([input, await callBuiltin("string::html::encode", [input], makeCtx())]).toEqual([input, real[i]]);
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
