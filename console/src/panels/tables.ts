// Tables of the chosen database with their row counts (as the signed-in user sees them), linked to INFO and a query.

import type { App } from "../app.js";
import { h } from "../dom.js";
import { definitions, ident, maskSecrets } from "../info.js";

export async function tablesPanel(app: App): Promise<HTMLElement> {
  if (!app.db) return h("p", { class: "muted" }, "Pick a database first.");
  const tables = definitions(await app.info("DB"), "tables");
  if (tables.length === 0) return h("p", { class: "muted" }, "No tables are defined in this database.");
  // one request: a count per table, names passed as variables
  const vars = Object.fromEntries(tables.map(([name], i) => [`t${i}`, name]));
  const counts = await app.run(tables.map((_, i) => `SELECT count() FROM type::table($t${i}) GROUP ALL;`).join("\n"), vars);
  const rows = tables.map(([name, def], i) => {
    const r = counts[i];
    const count = r?.status === "OK" ? String((r.result as { count?: number }[])[0]?.count ?? 0) : String(r?.result ?? "?");
    return h(
      "tr",
      {},
      h("td", {}, name),
      h("td", { class: "num" }, count),
      h("td", {}, h("code", {}, maskSecrets(def))),
      h(
        "td",
        {},
        h("button", { type: "button", onclick: () => void app.show("definitions", name) }, "Info"),
        h("button", { type: "button", onclick: () => void app.show("query", `SELECT * FROM ${ident(name)} LIMIT 100;`) }, "Query"),
      ),
    );
  });
  return h(
    "table",
    { id: "tables" },
    h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Rows"), h("th", {}, "Definition"), h("th", {}, ""))),
    h("tbody", {}, ...rows),
  );
}
