// Benchmark: two surql-auth nodes on one PostgreSQL (a throwaway cluster, fsync on): record signin and a record
// user's permission-filtered `SELECT * FROM user` over 10,000 users, 8 WebSocket clients per node — each node alone,
// then both at once (the two-node total). Servers are child processes (bench/server.ts); the clients run here.
// Run: node --import tsx bench/postgres.ts [seconds per measurement]

import os from "node:os";
import { postgresSkipReason, startPostgres } from "../test/helpers/postgres.js";
import { connect, startServer, stopServer } from "./server.js";

const MS = Number(process.argv[2] ?? 5) * 1000;
const CLIENTS = 8;
const ANN = { NS: "app", DB: "app", AC: "account", email: "ann@example.com", password: "pw-ann" };

type Client = Awaited<ReturnType<typeof connect>>;

/** `op` on every client of every node for MS: operations per second per node. */
async function rates(nodes: readonly Client[][], op: (c: Client) => Promise<unknown>): Promise<number[]> {
  const end = performance.now() + MS;
  const t0 = performance.now();
  const counts = await Promise.all(
    nodes.map(async (clients) => {
      let n = 0;
      await Promise.all(
        clients.map(async (c) => {
          while (performance.now() < end) {
            await op(c);
            n++;
          }
        }),
      );
      return n;
    }),
  );
  const s = (performance.now() - t0) / 1000;
  return counts.map((n) => n / s);
}

export async function benchPostgres(): Promise<void> {
  const skip = postgresSkipReason();
  if (skip !== undefined) {
    console.log(`postgres benchmark: skipped (${skip})`);
    return;
  }
  console.log(`postgres benchmark — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} vCPU, node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}; ${CLIENTS} clients per node, ${MS / 1000} s each`);
  const cluster = await startPostgres({ fsync: true });
  const servers = [];
  try {
    // B after A: its import finds the schema stored already
    for (let i = 0; i < 2; i++) servers.push(await startServer(cluster.url));
    const [a] = servers;
    const root = await connect(a!.port);
    await root.call("signin", [{ user: "root", pass: "root" }]);
    await root.call("use", ["app", "app"]);
    for (let at = 1; at <= 10_000; at += 1000) {
      const creates = Array.from({ length: 1000 }, (_, j) => `CREATE user:${at + j} SET name = 'u${at + j}', email = 'u${at + j}@example.com', password = 'x';`);
      await root.call("query", [creates.join("\n")]);
    }
    await root.call("signup", [{ ...ANN, name: "Ann" }]);
    const nodes: Client[][] = [];
    for (const s of servers) {
      const clients: Client[] = [];
      for (let i = 0; i < CLIENTS; i++) {
        const c = await connect(s.port);
        await c.call("signin", [ANN]);
        clients.push(c);
      }
      nodes.push(clients);
    }
    const select = async (c: Client) => {
      const [r] = (await c.call("query", ["SELECT * FROM user"])) as { result: unknown[] }[];
      if (r!.result.length !== 1) throw new Error("a record user sees its own record only");
    };
    const show = (what: string, [a1]: number[], [b1]: number[], both: number[]) =>
      console.log(`${what.padEnd(44)} node A ${a1!.toFixed(1).padStart(7)}/s   node B ${b1!.toFixed(1).padStart(7)}/s   both at once ${both[0]!.toFixed(1)} + ${both[1]!.toFixed(1)} = ${(both[0]! + both[1]!).toFixed(1)}/s`);
    for (const [what, op] of [
      ["record signin (argon2), 8 clients a node", (c: Client) => c.call("signin", [ANN])],
      ["record-user SELECT * FROM user, 10,001 users", select],
    ] as const) {
      const alone = [await rates([nodes[0]!], op), await rates([nodes[1]!], op)];
      show(what, alone[0]!, alone[1]!, await rates(nodes, op));
    }
    for (const c of [root, ...nodes.flat()]) c.ws.close();
  } finally {
    for (const s of servers) await stopServer(s.child);
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPostgres();
