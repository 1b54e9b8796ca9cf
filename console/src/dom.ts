// Building DOM nodes: text only through textContent (never innerHTML), so server data cannot inject markup.

type Attrs = Record<string, string | boolean | ((e: Event) => void) | undefined>;
type Child = Node | string | null | undefined | false;

/** `h("button", { onclick: f, class: "x" }, "Run")`: attributes, `on*` listeners, boolean attributes, children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, "");
    else if (name === "value") (el as HTMLInputElement).value = value;
    else el.setAttribute(name, value);
  }
  append(el, ...children);
  return el;
}

export function append(el: Element, ...children: Child[]): void {
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
}

/** Replace an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/** A labelled form field: `<label>Text <input …></label>`. */
export function field(label: string, input: HTMLElement): HTMLLabelElement {
  return h("label", {}, h("span", {}, label), input);
}

export function select(id: string, options: readonly (string | [value: string, label: string])[], value?: string): HTMLSelectElement {
  const el = h("select", { id, name: id });
  for (const o of options) {
    const [v, text] = typeof o === "string" ? [o, o] : o;
    el.append(h("option", { value: v }, text));
  }
  if (value !== undefined) el.value = value;
  return el;
}

/** An error line for a panel. */
export function errorBox(e: unknown): HTMLElement {
  return h("p", { class: "error", role: "alert" }, e instanceof Error ? e.message : String(e));
}
