// exec/statements/define-same: a start-up import of a schema that is stored already skips every DEFINE, keeps the
// generated keys (tokens stay valid), and a changed definition still behaves as the version's DEFINE does.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { DefineStatement } from "../../src/ast/nodes.js";
import { definedAlready } from "../../src/exec/statements/define-same.js";
import { SurqlAuth } from "../../src/index.js";
import { FileStore } from "../../src/store/kv/file.js";
import { rootSession, run } from "./helpers.js";

const SCHEMA = { 1: "examples/schema-v1.surql", 2: "examples/schema-v2.surql" } as const;

describe("definedAlready", () => {
  for (const compat of [1, 2] as const) {
    it(`finds every DEFINE of the example schema stored as written, and keeps the keys on a re-import (compat ${compat})`, async () => {
      const db = await SurqlAuth.open({ compat, import: [SCHEMA[compat]] });
      const catalog = db.engine.catalog;
      const access = catalog.getAccess("DATABASE", "app", "app", "account")!;
      const admin = catalog.getUser("ROOT", undefined, undefined, "admin")!;
      const ac = compat === 1 ? { SC: "account" } : { AC: "account" };
      const token = await db.connect().signup({ NS: "app", DB: "app", ...ac, name: "A", email: "a@example.com", password: "pw" });
      await db.importFile(SCHEMA[compat], { skipUnchanged: true });
      expect(catalog.getAccess("DATABASE", "app", "app", "account")).toBe(access);
      expect(catalog.getUser("ROOT", undefined, undefined, "admin")).toBe(admin);
      // the record user's token still verifies: the access method's key is the one it was signed with
      const conn = db.connect();
      await conn.authenticate(token);
      expect((await conn.query("SELECT VALUE email FROM user"))[0]!.result).toEqual(["a@example.com"]);
      // every DEFINE of the file, with the ns / db its USE statements select
      const at: { ns?: string; db?: string } = {};
      for (const s of parse(await import("node:fs").then((fs) => fs.readFileSync(SCHEMA[compat], "utf8")))) {
        if (s.kind === "Use") Object.assign(at, s.ns !== undefined ? { ns: s.ns } : {}, s.db !== undefined ? { db: s.db } : {});
        else if (s.kind.startsWith("Define")) expect(await definedAlready(catalog, s as DefineStatement, at.ns, at.db), s.kind).toBe(true);
      }
    });

    it(`sees a changed definition, password or param (compat ${compat})`, async () => {
      const db = await SurqlAuth.open({ compat });
      await run(db.engine, rootSession(), "DEFINE USER u ON DATABASE PASSWORD 'p' ROLES EDITOR; DEFINE TABLE t SCHEMAFULL; DEFINE PARAM $a VALUE 1; DEFINE PARAM $b VALUE 1 + 1");
      const same = async (text: string) => definedAlready(db.engine.catalog, parse(text)[0] as DefineStatement, "test", "test");
      expect(await same("DEFINE USER u ON DATABASE PASSWORD 'p' ROLES EDITOR")).toBe(true);
      expect(await same("DEFINE USER u ON DATABASE PASSWORD 'q' ROLES EDITOR")).toBe(false);
      expect(await same("DEFINE USER u ON DATABASE PASSWORD 'p' ROLES OWNER")).toBe(false);
      expect(await same("DEFINE TABLE t SCHEMAFULL")).toBe(true);
      expect(await same("DEFINE TABLE t SCHEMALESS")).toBe(false);
      expect(await same("DEFINE TABLE t SCHEMAFULL COMMENT 'x'")).toBe(false);
      expect(await same("DEFINE PARAM $a VALUE 1")).toBe(true);
      expect(await same("DEFINE PARAM $a VALUE 2")).toBe(false);
      expect(await same("DEFINE PARAM $b VALUE 1 + 1")).toBe(false);
      expect(await same("DEFINE TABLE other")).toBe(false);
    });
  }

  it("lets a changed DEFINE of a start-up import fail as SurrealDB 2.x does (use OVERWRITE)", async () => {
    const db = await SurqlAuth.open({ compat: 2 });
    await db.importText("USE NS app DB app; DEFINE TABLE user SCHEMAFULL;", "a.surql", { skipUnchanged: true });
    await db.importText("USE NS app DB app; DEFINE TABLE user SCHEMAFULL;", "a.surql", { skipUnchanged: true });
    await expect(db.importText("USE NS app DB app; DEFINE TABLE user SCHEMALESS;", "b.surql", { skipUnchanged: true })).rejects.toThrow("b.surql:1:20: The table 'user' already exists");
    await db.importText("USE NS app DB app; DEFINE TABLE OVERWRITE user SCHEMALESS;", "c.surql", { skipUnchanged: true });
  });
});

describe("starting again on a file: store", () => {
  for (const compat of [1, 2] as const) {
    it(`with the same --user/--pass and --import is no error, duplicates nothing and keeps every token valid (compat ${compat})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "start-"));
      try {
        const start = async () => {
          const storage = await FileStore.open(join(dir, "data"));
          return { storage, db: await SurqlAuth.open({ compat, storage, root: { user: "root", pass: "root" }, import: [SCHEMA[compat]] }) };
        };
        let { storage, db } = await start();
        const ac = compat === 1 ? { SC: "account" } : { AC: "account" };
        const record = await db.connect().signup({ NS: "app", DB: "app", ...ac, name: "A", email: "a@example.com", password: "pw" });
        const root = await db.connect().signin({ user: "root", pass: "root" });
        await storage.close();
        ({ storage, db } = await start());
        for (const token of [record, root]) await db.connect().authenticate(token);
        await db.connect().signin({ user: "root", pass: "root" });
        await db.connect().signin({ NS: "app", DB: "app", ...ac, email: "a@example.com", password: "pw" });
        expect([...db.engine.catalog.rootUsers.keys()].sort()).toEqual(["admin", "root"]);
        await storage.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
