// Explain: a query run as another identity on the server (POST /explain, a dry run), and every PERMISSIONS decision
// behind its answers in a table — what was judged, the record, the action, the clause, the values it read, the outcome.

import { explain, type ExplainedDecision } from "../api.js";
import type { App } from "../app.js";
import { errorBox, field, fill, h } from "../dom.js";

const VALUE_NAMES = ["auth", "access", "scope", "token", "session"] as const;

/** What a decision judged: `post`, `post.tags[1]`, `$name`, `fn::name`. */
function judged(d: ExplainedDecision): string {
  if (d.kind === "field") return `${d.table ?? ""}.${d.path ?? d.field ?? ""}`;
  if (d.kind === "table") return d.table ?? "";
  return d.kind === "param" ? `$${d.name ?? ""}` : (d.name ?? "");
}

function row(d: ExplainedDecision): HTMLTableRowElement {
  const values = VALUE_NAMES.flatMap((k) => (d.values?.[k] !== undefined ? [`$${k} = ${d.values[k]}`] : []));
  return h(
    "tr",
    { class: d.allowed ? "allowed" : "denied" },
    h("td", { class: "num" }, String(d.statement + 1)),
    h("td", {}, d.allowed ? "allowed" : "denied"),
    h("td", {}, d.action),
    h("td", {}, d.kind),
    h("td", {}, judged(d)),
    h("td", {}, h("code", {}, d.record ?? "")),
    h("td", {}, h("code", {}, d.clause)),
    h("td", {}, d.reason),
    h("td", {}, h("code", {}, [...values, ...(d.error !== undefined ? [d.error] : [])].join("  "))),
  );
}

export function explainPanel(app: App): HTMLElement {
  if (!app.db) return h("p", { class: "muted" }, "Pick a database first.");
  const as = h("input", { id: "explain-as", value: "anonymous", spellcheck: "false", placeholder: "anonymous | viewer@db | record ACCESS as user:ann" });
  const query = h("textarea", { id: "explain-query", rows: "5", spellcheck: "false", value: "SELECT * FROM user;" });
  const out = h("div", { id: "explain-out" });
  const run = async (): Promise<void> => {
    fill(out, h("p", { class: "muted" }, "Running…"));
    try {
      const { decisions } = await explain(app.conn(), as.value, query.value);
      const denied = decisions.filter((d) => !d.allowed).length;
      fill(
        out,
        h("p", { id: "explain-summary" }, `${decisions.length} decision(s), ${denied} denied (a dry run: nothing was written)`),
        decisions.length === 0
          ? null
          : h(
              "table",
              { id: "explain-decisions" },
              h("thead", {}, h("tr", {}, ...["#", "Outcome", "Action", "Kind", "What", "Record", "Clause", "Reason", "Values"].map((t) => h("th", {}, t)))),
              h("tbody", {}, ...decisions.map(row)),
            ),
      );
    } catch (e) {
      fill(out, errorBox(e));
    }
  };
  return h(
    "div",
    {},
    h("p", { class: "muted hint" }, "Runs the query as the identity without keeping anything it writes, and lists which rule allowed or denied each record and field. Identities: anonymous, ROLE@LEVEL (up to your own), record ACCESS as RECORD-ID."),
    field("As", as),
    field("Query", query),
    h("div", { class: "bar" }, h("button", { type: "button", id: "explain-run", onclick: () => void run() }, "Explain")),
    out,
  );
}
