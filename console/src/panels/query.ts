// Query: SurrealQL text run as the signed-in user, a database role, or a record user; results and errors per statement.

import { ApiError, sql } from "../api.js";
import type { App } from "../app.js";
import { errorBox, field, fill, h, select } from "../dom.js";
import { accesses, type AccessInfo } from "../info.js";
import { resultBlocks } from "../results.js";
import { tokenFor, type RunAs } from "../runas.js";

const MODES: [RunAs["kind"], string][] = [
  ["me", "Signed-in user"],
  ["role", "Database role (JWT access)"],
  ["record-signin", "Record user: signin variables"],
  ["record-id", "Record user: record id (JWT key)"],
];

let lastText = "INFO FOR DB;";

export async function queryPanel(app: App, text?: string): Promise<HTMLElement> {
  if (text !== undefined) lastText = text;
  const methods = app.db ? accesses(await app.info("DB")) : [];
  const byKind = (kind: AccessInfo["kind"]) => methods.filter((m) => m.kind === kind).map((m) => m.name);
  const editor = h("textarea", { id: "query", rows: "8", spellcheck: "false", value: lastText });
  const mode = select("runas", MODES, "me");
  const jwtAccess = select("runas-jwt-access", byKind("jwt"));
  const recordAccess = select("runas-record-access", byKind("record"));
  const role = select("runas-role", ["Viewer", "Editor", "Owner"]);
  const key = h("input", { id: "runas-key", type: "password", autocomplete: "off", placeholder: "the access method's KEY" });
  const vars = h("textarea", { id: "runas-vars", rows: "3", spellcheck: "false", value: '{ "email": "", "password": "" }' });
  const recordId = h("input", { id: "runas-id", placeholder: "user:ann" });
  // fresh labels each time: the inputs (and what was typed in them) are shared between modes
  const hint = (text: string) => h("p", { class: "muted hint" }, text);
  const fields: Record<RunAs["kind"], () => HTMLElement[]> = {
    me: () => [],
    role: () => [
      field("Access (TYPE JWT)", jwtAccess),
      field("Role", role),
      field("Key", key),
      hint("A 5-minute token with the role in its RL claim, signed in this page with the key you type (INFO shows keys redacted)."),
    ],
    "record-signin": () => [
      field("Access (TYPE RECORD)", recordAccess),
      field("Variables (JSON)", vars),
      hint("Signs in through the access method's SIGNIN with these variables, as an application would."),
    ],
    "record-id": () => [
      field("Access (TYPE RECORD)", recordAccess),
      field("Record id", recordId),
      field("Key", key),
      hint("A 5-minute token naming the record, for a record access WITH JWT … KEY you hold; a generated key cannot be signed for."),
    ],
  };
  const extra = h("div", { class: "runas-fields" });
  const showFields = () => fill(extra, ...fields[mode.value as RunAs["kind"]]());
  mode.addEventListener("change", showFields);
  showFields();
  const out = h("div", { id: "query-out" });
  const algorithmOf = (name: string) => methods.find((m) => m.name === name)?.algorithm ?? "HS512";

  const runAs = (): RunAs => {
    switch (mode.value as RunAs["kind"]) {
      case "me":
        return { kind: "me" };
      case "role":
        return { kind: "role", access: jwtAccess.value, algorithm: algorithmOf(jwtAccess.value), key: key.value, role: role.value };
      case "record-signin":
        return { kind: "record-signin", access: recordAccess.value, vars: JSON.parse(vars.value) as Record<string, unknown> };
      case "record-id":
        return { kind: "record-id", access: recordAccess.value, algorithm: algorithmOf(recordAccess.value), key: key.value, id: recordId.value };
    }
  };
  const run = async () => {
    lastText = editor.value;
    fill(out, h("p", { class: "muted" }, "Running…"));
    try {
      const as = runAs();
      const target = { compat: app.compat, myToken: app.me.token, ns: app.ns ?? "", db: app.db ?? "" };
      const query = (token: string) => sql({ token, ns: app.ns, db: app.db }, editor.value);
      let { token, label, forget } = await tokenFor(as, target);
      let results;
      try {
        results = await query(token);
      } catch (e) {
        // a kept record-user token that expired: sign in again once
        if (!forget || !(e instanceof ApiError) || e.status !== 401) throw e;
        forget();
        ({ token, label } = await tokenFor(as, target));
        results = await query(token);
      }
      fill(out, h("p", { id: "ran-as", class: "muted" }, `Ran as ${label}`), resultBlocks(results));
    } catch (e) {
      fill(out, errorBox(e));
    }
  };
  editor.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void run();
  });
  return h(
    "div",
    { class: "query" },
    editor,
    h("div", { class: "bar" }, field("Run as", mode), h("button", { type: "button", id: "run", onclick: () => void run() }, "Run (Ctrl+Enter)")),
    extra,
    out,
  );
}
