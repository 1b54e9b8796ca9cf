// Sign up and sign in with the official SurrealDB SDK against `npm start` (run that first, in another terminal).
import { Surreal, Table } from "surrealdb";
import WebSocket from "ws"; // Node 20 has no global WebSocket; Node 22+ can drop this and the option below.

const db = new Surreal({ websocketImpl: WebSocket });
await db.connect("ws://127.0.0.1:8000/rpc", { namespace: "app", database: "app" });
const email = `ann+${Date.now()}@example.com`;
await db.signup({ access: "account", variables: { name: "Ann", email, password: "pw-ann" } });
const { access } = await db.signin({ access: "account", variables: { email, password: "pw-ann" } });
console.log("token:", access.slice(0, 32) + "…");
console.log("my records:", await db.select(new Table("user"))); // PERMISSIONS: only Ann's own record
await db.close();
