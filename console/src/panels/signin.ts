// Sign in as a system user: root, namespace or database level (the user's roles come from its DEFINE USER).

import { signin } from "../api.js";
import type { Me } from "../app.js";
import { errorBox, field, h, select } from "../dom.js";

export function signinForm(onSignedIn: (me: Me) => void): HTMLElement {
  const level = select("level", [["root", "Root"], ["namespace", "Namespace"], ["database", "Database"]], "root");
  const ns = h("input", { id: "signin-ns", autocomplete: "off" });
  const db = h("input", { id: "signin-db", autocomplete: "off" });
  const user = h("input", { id: "user", autocomplete: "username", required: true });
  const pass = h("input", { id: "pass", type: "password", autocomplete: "current-password", required: true });
  const nsField = field("Namespace", ns);
  const dbField = field("Database", db);
  const status = h("div", { id: "signin-status" });
  const levelChanged = () => {
    nsField.hidden = level.value === "root";
    dbField.hidden = level.value !== "database";
  };
  level.addEventListener("change", levelChanged);
  levelChanged();
  const form = h(
    "form",
    { id: "signin", class: "card" },
    h("h2", {}, "Sign in as a system user"),
    field("Level", level),
    nsField,
    dbField,
    field("User", user),
    field("Password", pass),
    h("button", { type: "submit" }, "Sign in"),
    status,
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const lv = level.value as Me["level"];
    const payload: Record<string, string> = { user: user.value, pass: pass.value };
    if (lv !== "root") payload.NS = ns.value;
    if (lv === "database") payload.DB = db.value;
    status.replaceChildren(h("p", { class: "muted" }, "Signing in…"));
    signin("signin", payload).then(
      (token) => {
        pass.value = "";
        onSignedIn({ token, level: lv, user: user.value, ns: payload.NS, db: payload.DB });
      },
      (err) => status.replaceChildren(errorBox(err)),
    );
  });
  return form;
}
