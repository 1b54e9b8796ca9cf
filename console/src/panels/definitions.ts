// Definitions: what INFO FOR ROOT / NS / DB / TABLE shows, one section per kind of definition.

import type { App } from "../app.js";
import { errorBox, fill, h, select } from "../dom.js";
import { ident, maskSecrets, names, type Info } from "../info.js";

function infoView(info: Info): HTMLElement {
  return h(
    "div",
    { class: "info" },
    ...Object.keys(info)
      .sort()
      .map((section) => {
        const value = info[section];
        const entries = value && typeof value === "object" && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
        const body =
          section === "system" || entries.some(([, v]) => typeof v !== "string")
            ? h("pre", {}, JSON.stringify(value, null, 2))
            : h("dl", {}, ...entries.flatMap(([name, def]) => [h("dt", {}, name), h("dd", {}, h("code", {}, maskSecrets(String(def))))]));
        return h("details", { open: entries.length > 0 }, h("summary", {}, `${section} (${entries.length})`), body);
      }),
  );
}

export async function definitionsPanel(app: App, table?: string): Promise<HTMLElement> {
  const levels: [string, string][] = [];
  if (app.me.level === "root") levels.push(["ROOT", "Root"]);
  if (app.ns && app.me.level !== "database") levels.push(["NS", `Namespace ${app.ns}`]);
  if (app.ns && app.db) levels.push(["DB", `Database ${app.db}`]);
  const tables = app.db ? names(await app.info("DB"), "tables") : [];
  const what = select("info-level", [...levels, ...tables.map((t): [string, string] => [`TABLE:${t}`, `Table ${t}`])]);
  if (table !== undefined) what.value = `TABLE:${table}`;
  else if (levels.length) what.value = levels[levels.length - 1][0];
  const out = h("div", { id: "info-out" });
  const load = async () => {
    fill(out, h("p", { class: "muted" }, "Loading…"));
    const v = what.value;
    try {
      const info = v.startsWith("TABLE:") ? await app.info(`TABLE ${ident(v.slice(6))}`) : await app.info(v as "ROOT" | "NS" | "DB");
      fill(out, infoView(info));
    } catch (e) {
      fill(out, errorBox(e));
    }
  };
  what.addEventListener("change", () => void load());
  void load();
  return h("div", {}, h("label", {}, "INFO FOR ", what), out);
}
