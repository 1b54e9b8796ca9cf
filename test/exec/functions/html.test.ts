import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "../../../src/exec/functions/html.js";

describe("sanitizeHtml on adversarial input", () => {
  it("100,000 nested allowed elements: written back whole, without overflowing the stack", () => {
    const n = 100_000;
    expect(sanitizeHtml(`${"<div>".repeat(n)}x`)).toBe(`${"<div>".repeat(n)}x${"</div>".repeat(n)}`);
  });
  it("100,000 nested disallowed elements are unwrapped, nested script / style dropped with their content", () => {
    const n = 100_000;
    expect(sanitizeHtml(`${"<custom>".repeat(n)}x`)).toBe("x");
    expect(sanitizeHtml(`${"<svg>".repeat(n)}x`)).toBe("x");
    expect(sanitizeHtml(`<b>${"<style>".repeat(n)}</b>`)).toBe("<b></b>");
  });
  it("many attributes on one element keep the allowed ones once (the parser drops duplicates)", () => {
    expect(sanitizeHtml(`<a ${"href=x onclick=y ".repeat(50_000)}>l</a>`)).toBe('<a href="x" rel="noopener noreferrer">l</a>');
  });
});

describe("html5ever 0.27 departures from parse5 (oracle)", () => {
  it("<math> / <svg> do not reconstruct the active formatting elements", () => {
    expect(sanitizeHtml("<p><a><table><tr><td>x</td></tr></table><math>")).toBe(
      '<p><a rel="noopener noreferrer"></a></p><table><tbody><tr><td>x</td></tr></tbody></table>',
    );
    // Any other start tag does (the second <a>).
    expect(sanitizeHtml("<table><a><col><b>")).toBe(
      '<a rel="noopener noreferrer"></a><a rel="noopener noreferrer"><b></b></a><table><colgroup><col></colgroup></table>',
    );
  });
  it("<![CDATA[ is a CDATA section at a MathML integration point, a comment in HTML", () => {
    expect(sanitizeHtml("<math><mi><![CDATA[x<b>]]>")).toBe("x&lt;b&gt;");
    expect(sanitizeHtml("<p><![CDATA[x]]>")).toBe("<p></p>");
  });
});
