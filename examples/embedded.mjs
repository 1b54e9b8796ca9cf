// surql-auth inside your own Node program: load the schema at start-up, then sign users up and in directly.
// Run after `npm install` (which builds dist/):  node examples/embedded.mjs
import { SurqlAuth } from "../dist/src/index.js";

const db = await SurqlAuth.open({
  compat: 2, // 1 = SurrealDB 1.x scopes (examples/schema-v1.surql), 2 = 2.x record access
  root: { user: "root", pass: "root" },
  import: [new URL("./schema-v2.surql", import.meta.url).pathname],
});

const ann = db.connect();
const token = await ann.signup({ NS: "app", DB: "app", AC: "account", name: "Ann", email: "ann@example.com", password: "pw-ann" });
console.log("signed up, token:", token.slice(0, 32) + "…");
console.log("Ann sees:", (await ann.query("SELECT name, email FROM user"))[0].result);

// The same token establishes a session on another connection, as `authenticate` over RPC does.
const again = db.connect();
await again.authenticate(token);
console.log("authenticated as:", (await again.query("RETURN $auth"))[0].result);

// A failed signin says only what SurrealDB says.
try {
  await db.connect().signin({ NS: "app", DB: "app", AC: "account", email: "ann@example.com", password: "wrong" });
} catch (e) {
  console.log("wrong password:", e.message);
}

// Serve the same datastore over HTTP and WebSocket (port 0 = any free port).
const { server, port } = await db.listen("127.0.0.1", 0);
console.log(`listening on 127.0.0.1:${port}; closing`);
await server.close();
