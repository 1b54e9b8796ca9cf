// Sessions: the server's registry of live realtime sessions (GET /sessions), each with a Kill button (DELETE /sessions/:id).

import { ApiError, killSession, listSessions, type SessionEntry } from "../api.js";
import type { App } from "../app.js";
import { errorBox, fill, h } from "../dom.js";

const COLUMNS: [keyof SessionEntry, string][] = [
  ["level", "Level"],
  ["user", "User"],
  ["ns", "NS"],
  ["db", "DB"],
  ["access", "Access"],
  ["ip", "IP"],
  ["started", "Started"],
  ["expires", "Expires"],
  ["lastSeen", "Last seen"],
];

export async function sessionsPanel(app: App): Promise<HTMLElement> {
  const out = h("div", { id: "sessions-out" });
  const load = async (): Promise<void> => {
    let list: SessionEntry[];
    try {
      list = await listSessions(app.me.token);
    } catch (e) {
      const absent = e instanceof ApiError && (e.status === 404 || e.status === 501);
      fill(out, absent ? h("p", { class: "muted" }, "This server keeps no session registry.") : errorBox(e));
      return;
    }
    const kill = (id: string) => killSession(app.me.token, id).then(load, (e) => fill(out, errorBox(e)));
    const rows = list.map((s) =>
      h(
        "tr",
        { "data-session": s.id },
        h("td", {}, h("code", { title: s.id }, s.id.slice(0, 8))),
        ...COLUMNS.map(([k]) => h("td", {}, String(s[k] ?? ""))),
        h("td", {}, h("button", { type: "button", class: "kill", onclick: () => void kill(s.id) }, "Kill")),
      ),
    );
    fill(
      out,
      list.length === 0
        ? h("p", { class: "muted" }, "No live WebSocket sessions (HTTP requests are one-shot and not listed).")
        : h(
            "table",
            { id: "sessions" },
            h("thead", {}, h("tr", {}, h("th", {}, "Id"), ...COLUMNS.map(([, label]) => h("th", {}, label)), h("th", {}, ""))),
            h("tbody", {}, ...rows),
          ),
    );
  };
  await load();
  return h("div", {}, h("div", { class: "bar" }, h("button", { type: "button", id: "sessions-refresh", onclick: () => void load() }, "Refresh")), out);
}
