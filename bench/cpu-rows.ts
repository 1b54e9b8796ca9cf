import { SurqlAuth } from "../src/index.js";
const db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"] });
const token = await db.connect().signup({ NS: "app", DB: "app", AC: "account", name: "Ann", email: "ann@example.com", password: "pw-ann" });
const root = db.connect(); await root.signin({ user: "root", pass: "root" }); await root.use("app", "app");
for (let c = 0; c < 10; c++) await root.query(Array.from({ length: 1000 }, (_, j) => { const i = c * 1000 + j + 1; return `CREATE user:${i} SET name = 'u${i}', email = 'u${i}@example.com', password = 'x';`; }).join("\n"));
const conn = db.connect(); await conn.authenticate(token);
const ann = db.connect(); await ann.authenticate(token);
async function cpu(name: string, n: number, op: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await op();
  const best: number[] = [];
  for (let r = 0; r < 5; r++) { const s = process.cpuUsage(); for (let i = 0; i < n; i++) await op(); const d = process.cpuUsage(s); best.push((d.user + d.system) / n); }
  best.sort((a, b) => a - b);
  console.log(`${name.padEnd(30)} median ${best[2]!.toFixed(1)} µs  min ${best[0]!.toFixed(1)} µs`);
}
await cpu("authenticate cached", 20000, () => conn.authenticate(token));
await cpu("record-user SELECT", 200, () => ann.query("SELECT * FROM user"));
await cpu("unique-index SELECT", 3000, () => root.query("SELECT * FROM user WHERE email = 'u77@example.com'"));
await cpu("UPDATE one record", 3000, () => root.query("UPDATE user:77 SET name = 'x'"));
