// string::html::sanitize: SurrealDB's ammonia (4.0, default Builder) over an HTML5 fragment parse, re-serialised as
// html5ever 0.27 writes it. parse5 parses as html5ever does (both follow the WHATWG parsing algorithm); the walk and
// the serialisation are iterative, so a deeply nested input cannot overflow the stack.

import { defaultTreeAdapter, html, Parser, Token, type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes as T } from "parse5";
import { incorrectArguments } from "./registry.js";

/** ammonia's default allowed tags (HTML namespace only: an SVG or MathML element is unwrapped). */
const TAGS = new Set(
  ("a abbr acronym area article aside b bdi bdo blockquote br caption center cite code col colgroup data dd del " +
    "details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hgroup hr i img ins kbd li map mark " +
    "nav ol p pre q rp rt rtc ruby s samp small span strike strong sub summary sup table tbody td th thead time tr " +
    "tt u ul var wbr").split(" "),
);

/** Removed together with their content (in any namespace). */
const CLEAN_CONTENT_TAGS = new Set(["script", "style"]);

/** Attributes allowed on every allowed tag. */
const GENERIC_ATTRIBUTES = new Set(["lang", "title"]);

const ALIGN = ["align", "char", "charoff"];
/** Attributes allowed per tag. */
const TAG_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    a: ["href", "hreflang"],
    bdo: ["dir"],
    blockquote: ["cite"],
    col: [...ALIGN, "span"],
    colgroup: [...ALIGN, "span"],
    del: ["cite", "datetime"],
    hr: ["align", "size", "width"],
    img: ["align", "alt", "height", "src", "width"],
    ins: ["cite", "datetime"],
    ol: ["start"],
    q: ["cite"],
    table: [...ALIGN, "summary"],
    tbody: ALIGN,
    td: [...ALIGN, "colspan", "headers", "rowspan"],
    tfoot: ALIGN,
    th: [...ALIGN, "colspan", "headers", "rowspan", "scope"],
    thead: ALIGN,
    tr: ALIGN,
  }).map(([tag, attrs]) => [tag, new Set(attrs)]),
);

/** URL schemes an href / src may use (a relative URL passes). */
const URL_SCHEMES = new Set(
  ("bitcoin ftp ftps geo http https im irc ircs magnet mailto mms mx news nntp openpgp4fpr sip sms smsto ssh tel url " +
    "webcal wtai xmpp").split(" "),
);

/** The `rel` every kept link gets. */
const LINK_REL = "noopener noreferrer";

/** html5ever's void elements: no end tag, children never written. */
const VOID = new Set("area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr".split(" "));

/** The fragment context: ammonia parses as if inside a `<div>`. */
const CONTEXT = defaultTreeAdapter.createElement("div", html.NS.HTML, []);

/**
 * parse5 with html5ever 0.27's departures, each found by the differential property (test/differential/string-html.test.ts):
 * `<math>` and `<svg>` do not reconstruct the active formatting elements, and `<![CDATA[` opens a CDATA section
 * whenever the current node is not HTML (also at a MathML / SVG integration point such as `<mi>`, as the spec says).
 */
class Html5ever027 extends Parser<DefaultTreeAdapterMap> {
  override _reconstructActiveFormattingElements(): void {
    const token = this.currentToken;
    const foreignStart = token?.type === Token.TokenType.START_TAG && (token.tagID === html.TAG_ID.MATH || token.tagID === html.TAG_ID.SVG);
    if (!foreignStart) super._reconstructActiveFormattingElements();
  }

  /** Reads `<![CDATA[` with the spec's test (parse5 uses its foreign-content flag, false at integration points). */
  cdataAsSpec(): this {
    const tokenizer = this.tokenizer as unknown as { inForeignNode: boolean; _stateMarkupDeclarationOpen(cp: number): void };
    const markupDeclarationOpen = tokenizer._stateMarkupDeclarationOpen;
    tokenizer._stateMarkupDeclarationOpen = (cp) => {
      const foreign = tokenizer.inForeignNode;
      tokenizer.inForeignNode = this.currentNotInHTML;
      try {
        markupDeclarationOpen.call(tokenizer, cp);
      } finally {
        tokenizer.inForeignNode = foreign;
      }
    };
    return this;
  }
}

/** UTF-16 units the tokenizer reads, or nodes the walk writes, between two yields of sanitizeSteps. */
export const SANITIZE_STEP = 4096;

/**
 * The fragment parse, fed to the tokenizer a piece at a time (it resumes inside a token, as parse5's streaming parser
 * does), yielding after each piece; a piece never ends between the two halves of a surrogate pair.
 */
/**
 * Elements one fragment parse may create (stricter than SurrealDB, which has no bound: 276,000 nested tables took a
 * 563 MB heap and 0.65 s mark-compact pauses here; attack pass 12, J3).
 */
export const MAX_ELEMENTS = 65_536;

/** The default tree adapter, refusing the element past MAX_ELEMENTS. */
function countingAdapter(): typeof defaultTreeAdapter {
  let elements = 0;
  return {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++elements > MAX_ELEMENTS) {
        throw incorrectArguments("string::html::sanitize", `The fragment must not hold more than ${MAX_ELEMENTS} elements.`);
      }
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
  };
}

function* parseFragment(input: string, piece: number): Generator<void, T.DocumentFragment> {
  const parser = (Html5ever027.getFragmentParser(CONTEXT, { treeAdapter: countingAdapter() }) as Html5ever027).cdataAsSpec();
  for (let at = 0; ; ) {
    let end = Math.min(input.length, at + piece);
    if ((input.charCodeAt(end - 1) & 0xfc00) === 0xd800) end = Math.min(input.length, end + 1);
    parser.tokenizer.write(input.slice(at, end), end === input.length);
    at = end;
    if (at === input.length) break;
    yield;
  }
  return parser.getFragment();
}

/** html5ever's text escaping. */
const escapeText = (s: string): string => s.replace(/[&\u00a0<>]/g, (c) => TEXT_ESCAPES[c]!);
/** html5ever's attribute-value escaping (0.27: `<` and `>` stay). */
const escapeAttribute = (s: string): string => s.replace(/[&\u00a0"]/g, (c) => TEXT_ESCAPES[c]!);
const TEXT_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "\u00a0": "&nbsp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * Whether a URL attribute's value is kept: as Rust's `url::Url::parse` without a base, a value without a scheme is
 * relative (kept), one with a scheme must parse and use an allowed scheme.
 */
function urlAllowed(value: string): boolean {
  const input = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+\-.]*):/.exec(input);
  if (!scheme) return true;
  if (!URL_SCHEMES.has(scheme[1]!.toLowerCase())) return false;
  return URL.canParse(input);
}

/** The attributes ammonia keeps on an allowed element, in source order, then `rel` on links. */
function keptAttributes(tag: string, attrs: readonly { name: string; value: string }[]): string {
  const perTag = TAG_ATTRIBUTES.get(tag);
  let out = "";
  for (const { name, value } of attrs) {
    if (!GENERIC_ATTRIBUTES.has(name) && !perTag?.has(name)) continue;
    if ((name === "href" || name === "src") && !urlAllowed(value)) continue;
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  return tag === "a" ? `${out} rel="${LINK_REL}"` : out;
}

const isElement = (n: T.ChildNode): n is T.Element => "tagName" in n;

/**
 * Sanitises an HTML fragment with ammonia's defaults, yielding every SANITIZE_STEP units parsed or nodes written, so
 * its caller may give the event loop a turn in between (attack pass 12, J3: one call over 4 Mi units held it 6.8 s).
 */
function* sanitizeSteps(input: string, piece = SANITIZE_STEP): Generator<void, string> {
  const fragment = yield* parseFragment(input, piece);
  let out = "";
  let steps = 0;
  // Work list in reverse document order: a node to visit, or the end tag to write after a kept element's children.
  const work: (T.ChildNode | string)[] = [...fragment.childNodes].reverse();
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (++steps % SANITIZE_STEP === 0) yield;
    if (typeof item === "string") {
      out += item;
      continue;
    }
    // 1. Text is written escaped; comments, and anything else that is not an element, are dropped.
    if (!isElement(item)) {
      if (item.nodeName === "#text") {
        const text = (item as T.TextNode).value;
        for (let at = 0; at < text.length; at += SANITIZE_STEP) {
          out += escapeText(text.slice(at, at + SANITIZE_STEP));
          if (at + SANITIZE_STEP < text.length) yield;
        }
      }
      continue;
    }
    // 2. script / style go with their content.
    if (CLEAN_CONTENT_TAGS.has(item.tagName)) continue;
    // 3. An allowed HTML element is written with its kept attributes; any other element is unwrapped.
    const kept = item.namespaceURI === html.NS.HTML && TAGS.has(item.tagName);
    if (kept) {
      out += `<${item.tagName}${keptAttributes(item.tagName, item.attrs)}>`;
      if (VOID.has(item.tagName)) continue;
      work.push(`</${item.tagName}>`);
    }
    // 4. Children next (a template's content is not among its children, as in html5ever's DOM).
    for (let i = item.childNodes.length - 1; i >= 0; i--) work.push(item.childNodes[i]!);
  }
  return out;
}

/** sanitizeSteps at once (the tokenizer fed `piece` units at a time: tests compare piece sizes). */
export function sanitizeHtml(input: string, piece = SANITIZE_STEP): string {
  const steps = sanitizeSteps(input, piece);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** sanitizeSteps with `pause()` (the query's budget checkpoint) awaited between steps; a short input at once. */
export function sanitizeHtmlPaced(input: string, pause: () => Promise<void> | undefined): string | Promise<string> {
  return input.length <= SANITIZE_STEP ? sanitizeHtml(input) : paced(sanitizeSteps(input), pause);
}

async function paced(steps: Generator<void, string>, pause: () => Promise<void> | undefined): Promise<string> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    const wait = pause();
    if (wait) await wait;
  }
}
