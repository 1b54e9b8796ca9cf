// The console's entry: server version, the sign-in form, then the signed-in shell with its panels.

import { version } from "./api.js";
import { App, type Me, type Panel } from "./app.js";
import { errorBox, fill } from "./dom.js";
import { definitionsPanel } from "./panels/definitions.js";
import { explainPanel } from "./panels/explain.js";
import { queryPanel } from "./panels/query.js";
import { sessionsPanel } from "./panels/sessions.js";
import { signinForm } from "./panels/signin.js";
import { tablesPanel } from "./panels/tables.js";
import { usersPanel } from "./panels/users.js";
import { forgetSignins } from "./runas.js";

const SOON = "Not offered by this server yet";

const PANELS: readonly Panel[] = [
  { id: "query", label: "Query", render: queryPanel },
  { id: "definitions", label: "Definitions", render: definitionsPanel },
  { id: "tables", label: "Tables", render: tablesPanel },
  { id: "users", label: "Users", render: usersPanel },
  // places kept for features other parts of the server will offer over the public API
  { id: "sessions", label: "Sessions", render: sessionsPanel },
  { id: "access", label: "Access matrix", note: SOON },
  { id: "audit", label: "Audit events", note: SOON },
  { id: "explain", label: "Explain denial", render: explainPanel },
];

async function main(): Promise<void> {
  const root = document.getElementById("app") as HTMLElement;
  const server = document.getElementById("server") as HTMLElement;
  let compat: 1 | 2 = 2;
  try {
    const v = await version();
    compat = v.startsWith("surrealdb-1.") ? 1 : 2;
    server.textContent = v;
  } catch (e) {
    fill(root, errorBox(e));
    return;
  }
  const signedOut = () => {
    forgetSignins();
    fill(root, signinForm(signedIn));
  };
  const signedIn = (me: Me) => void new App(compat, me, PANELS, signedOut).mount(root);
  signedOut();
}

void main();
