// The signed-in console: who is signed in, the chosen namespace / database, the panel tabs and the panel area.

import { sql, sqlOne, type Conn } from "./api.js";
import { errorBox, fill, h, select } from "./dom.js";
import { ident, names, userRoles, type Info } from "./info.js";

/** The signed-in system user; the token lives in this object only (memory), never in storage. */
export interface Me {
  readonly token: string;
  readonly level: "root" | "namespace" | "database";
  readonly user: string;
  readonly ns?: string;
  readonly db?: string;
}

/** A panel: `render` draws it; a panel without one is a place kept for a feature the server does not offer yet. */
export interface Panel {
  readonly id: string;
  readonly label: string;
  readonly render?: (app: App, arg?: string) => Promise<HTMLElement> | HTMLElement;
  readonly note?: string;
}

export class App {
  ns: string | undefined;
  db: string | undefined;
  private current = "";
  private roles = "";
  private shown = 0;
  private readonly bar = h("div", { id: "context", class: "bar" });
  private readonly nav = h("nav", { id: "tabs" });
  private readonly area = h("section", { id: "panel" });

  constructor(
    readonly compat: 1 | 2,
    readonly me: Me,
    private readonly panels: readonly Panel[],
    private readonly signOut: () => void,
  ) {
    this.ns = me.ns;
    this.db = me.db;
  }

  /** The signed-in user's connection to the chosen namespace and database. */
  conn(): Conn {
    return { token: this.me.token, ns: this.ns, db: this.db };
  }

  /** INFO FOR ROOT / NS / DB / TABLE <ident> as the signed-in user. */
  info(what: string): Promise<Info> {
    return sqlOne(this.conn(), `INFO FOR ${what}`) as Promise<Info>;
  }

  /** Draw the shell into `root` and open the first panel. */
  async mount(root: HTMLElement): Promise<void> {
    fill(root, this.bar, this.nav, this.area);
    for (const p of this.panels)
      this.nav.append(
        h("button", { type: "button", id: `tab-${p.id}`, disabled: !p.render, title: p.note, onclick: () => this.show(p.id) }, p.label),
      );
    this.roles = await this.myRoles();
    await this.drawContext();
    await this.show(this.panels[0].id);
  }

  /** Open a panel (`arg`: e.g. the query text the Tables panel hands the Query panel). */
  async show(id: string, arg?: string): Promise<void> {
    const panel = this.panels.find((p) => p.id === id);
    if (!panel?.render) return;
    this.current = id;
    const shown = ++this.shown;
    for (const b of this.nav.querySelectorAll("button")) b.classList.toggle("active", b.id === `tab-${id}`);
    fill(this.area, h("p", { class: "muted" }, "Loading…"));
    let view: HTMLElement;
    try {
      view = await panel.render(this, arg);
    } catch (e) {
      view = errorBox(e);
    }
    // a panel opened meanwhile wins
    if (shown === this.shown) fill(this.area, view);
  }

  /** Namespace and database pickers: what INFO lists for a root / namespace user, fixed for a database user. */
  private async drawContext(): Promise<void> {
    const nsOptions = this.me.level === "root" ? await this.listOr("ROOT", "namespaces") : [this.me.ns ?? ""];
    if (this.ns === undefined || !nsOptions.includes(this.ns)) this.ns = nsOptions[0];
    const dbOptions = this.me.level === "database" ? [this.me.db ?? ""] : this.ns === undefined ? [] : await this.listOr("NS", "databases");
    if (this.db === undefined || !dbOptions.includes(this.db)) this.db = dbOptions[0];
    const nsSelect = select("ns", nsOptions, this.ns);
    const dbSelect = select("db", dbOptions, this.db);
    nsSelect.disabled = this.me.level !== "root";
    dbSelect.disabled = this.me.level === "database";
    nsSelect.addEventListener("change", () => {
      this.ns = nsSelect.value;
      this.db = undefined;
      void this.drawContext().then(() => this.show(this.current));
    });
    dbSelect.addEventListener("change", () => {
      this.db = dbSelect.value;
      void this.show(this.current);
    });
    const roles = this.roles;
    const who = `${this.me.user} (${this.me.level}${this.me.ns ? ` ${this.me.ns}` : ""}${this.me.db ? `/${this.me.db}` : ""}${roles ? `, ${roles}` : ""})`;
    fill(
      this.bar,
      h("label", {}, "Namespace ", nsSelect),
      h("label", {}, "Database ", dbSelect),
      h("span", { id: "signed-in", class: "muted" }, `Signed in as ${who}`),
      h("button", { type: "button", id: "signout", onclick: () => this.signOut() }, "Sign out"),
    );
  }

  /** The signed-in user's roles from its DEFINE USER (INFO FOR USER), or "" when it may not read them. */
  private async myRoles(): Promise<string> {
    const on = { root: "ROOT", namespace: "NAMESPACE", database: "DATABASE" }[this.me.level];
    try {
      return userRoles(String(await sqlOne({ token: this.me.token, ns: this.me.ns, db: this.me.db }, `INFO FOR USER ${ident(this.me.user)} ON ${on}`)));
    } catch {
      return "";
    }
  }

  /** Names from INFO FOR ROOT / NS, or none when the user may not list them. */
  private async listOr(what: "ROOT" | "NS", section: string): Promise<string[]> {
    try {
      return names(await this.info(what), section);
    } catch {
      return [];
    }
  }

  /** Run several statements at once as the signed-in user. */
  run(text: string, vars?: Record<string, string>) {
    return sql(this.conn(), text, vars);
  }
}
