// A throwaway PostgreSQL cluster for tests and benches: initdb into a temp folder (as the postgres user when we
// are root: initdb refuses root), pg_ctl on a free loopback port, stopped and removed by stop().

import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  readonly url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb"))) candidates.push(dirname(realpathSync(join(dir, "initdb"))));
  }
  if (existsSync("/usr/lib/postgresql")) {
    const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresSkipReason(): string | undefined {
  if (postgresBin() === undefined) return "no initdb found: install PostgreSQL (Debian: apt-get install postgresql) or set PG_BIN";
  if (userInfo().uid === 0 && !hasUser("postgres")) return "running as root and there is no postgres user to run initdb as";
  return undefined;
}

function hasUser(name: string): boolean {
  try {
    execFileSync("id", ["-u", name], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a cluster; `fsync: false` (the default) trades durability for test speed, benches pass true. */
export async function startPostgres(options: { fsync?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBin();
  const skip = postgresSkipReason();
  if (bin === undefined || skip !== undefined) throw new Error(skip);
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), "surql-pg-"));
  const data = join(dir, "data");
  if (root) {
    const id = (flag: string): number => Number(execFileSync("id", [flag, "postgres"]).toString());
    chownSync(dir, id("-u"), id("-g"));
    chmodSync(dir, 0o700);
  }
  // as the postgres user when we are root
  const exec = (cmd: string, args: string[]): void => {
    const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] : [join(bin, cmd), args];
    execFileSync(file, argv, { stdio: ["ignore", "ignore", "pipe"], cwd: dir });
  };
  const port = await freePort();
  try {
    exec("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
    const settings = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", `-c fsync=${options.fsync ? "on" : "off"}`, "-c max_connections=200"];
    exec("pg_ctl", ["-D", data, "-o", settings.join(" "), "-l", join(dir, "log"), "-w", "start"]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        exec("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new empty database on `cluster` (named `prefix` and a random tail), as a connection URL. */
export async function createDatabase(cluster: PostgresCluster, prefix: string): Promise<string> {
  const name = `${prefix}${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return cluster.url.replace(/\/[^/]*$/, `/${name}`);
}
