// System users on every level the signed-in user can see: root, the chosen namespace, the chosen database.

import type { App } from "../app.js";
import { errorBox, h } from "../dom.js";
import { users, type UserInfo } from "../info.js";

export async function usersPanel(app: App): Promise<HTMLElement> {
  const levels: ["ROOT" | "NS" | "DB", string][] = [];
  if (app.me.level === "root") levels.push(["ROOT", "root"]);
  if (app.ns && app.me.level !== "database") levels.push(["NS", `namespace ${app.ns}`]);
  if (app.ns && app.db) levels.push(["DB", `database ${app.db}`]);
  const found: UserInfo[] = [];
  const problems: HTMLElement[] = [];
  for (const [what, label] of levels) {
    try {
      found.push(...users(await app.info(what), label));
    } catch (e) {
      problems.push(errorBox(e));
    }
  }
  return h(
    "div",
    {},
    ...problems,
    h(
      "table",
      { id: "users" },
      h("thead", {}, h("tr", {}, h("th", {}, "Level"), h("th", {}, "User"), h("th", {}, "Roles"), h("th", {}, "Definition"))),
      h(
        "tbody",
        {},
        ...found.map((u) => h("tr", {}, h("td", {}, u.level), h("td", {}, u.name), h("td", {}, u.roles), h("td", {}, h("code", {}, u.definition)))),
      ),
    ),
  );
}
