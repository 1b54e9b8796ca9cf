// doc/fields: a field TYPE / ASSERT / VALUE / READONLY error never prints a value the client may not select, nor the id
// of a record it may not select (attack pass 3, A9); owners keep SurrealDB's texts. Each repro as a record user, both compats.

import { describe, expect, it } from "vitest";
import { newSession } from "../../src/exec/session.js";
import { RecordId } from "../../src/value/types.js";
import { newDs, rootSession, run } from "../exec/helpers.js";

const SCHEMA = `
DEFINE TABLE wallet SCHEMALESS PERMISSIONS FOR select, update FULL;
DEFINE FIELD max_credit ON wallet TYPE int;
DEFINE FIELD credit ON wallet TYPE int ASSERT $value <= $this.max_credit PERMISSIONS FOR select NONE, FOR update NONE;
CREATE wallet:alice SET max_credit = 1000000, credit = 734215;
DEFINE TABLE shared SCHEMALESS PERMISSIONS FOR select, update FULL;
DEFINE FIELD code ON shared TYPE string PERMISSIONS FOR select NONE;
DEFINE FIELD tok ON shared PERMISSIONS FOR select NONE;
DEFINE FIELD nest ON shared FLEXIBLE TYPE object;
DEFINE FIELD nest.pin ON shared PERMISSIONS FOR select NONE;
CREATE shared:1 SET code = 'SECRET_code_1', tok = 'SECRET_tok_1', nest = { pin: 'SECRET_pin_1', open: 1 };
DEFINE FIELD OVERWRITE code ON shared TYPE int PERMISSIONS FOR select NONE;
DEFINE TABLE dropbox SCHEMALESS PERMISSIONS FOR select NONE, FOR create, update FULL;
CREATE dropbox:7 SET secret = 'SECRET_dropbox_7';
DEFINE FIELD secret ON dropbox TYPE int;
DEFINE TABLE ro3 SCHEMALESS PERMISSIONS FOR select, update FULL;
DEFINE FIELD secret ON ro3 READONLY PERMISSIONS FOR select NONE;
DEFINE FIELD open ON ro3 READONLY;
CREATE ro3:1 SET secret = 'SECRET_ro3', open = 'visible';
`;

const SECRETS = ["734215", "SECRET_", "SECRET_dropbox_7", "SECRET_code_1", "SECRET_tok_1", "SECRET_pin_1", "SECRET_ro3"];

describe.each([1, 2] as const)("field errors and hidden values (compat %i)", (compat) => {
  const mal = () =>
    newSession({ ns: "test", db: "test", actor: { level: compat === 1 ? "Scope" : "Record", ns: "test", db: "test", id: "user:mal", roles: [] }, rd: new RecordId("user", "mal"), ac: "account" });
  const setUp = async (extra = "") => {
    const ds = newDs({ compat });
    // 1.5.4 has no OVERWRITE: a DEFINE there replaces what it names
    const schema = compat === 1 ? (SCHEMA + extra).replaceAll("DEFINE FIELD OVERWRITE", "DEFINE FIELD") : SCHEMA + extra;
    const out = await run(ds, rootSession(), schema);
    expect(out.filter((o) => "err" in o)).toEqual([]);
    return ds;
  };
  const noSecret = (out: unknown) => {
    const text = JSON.stringify(out);
    for (const s of SECRETS) expect(text).not.toContain(s);
  };

  it("an ASSERT on a hidden field, failed by the client's write to another field, prints neither value (the wallet repro)", async () => {
    const ds = await setUp();
    const out = await run(ds, mal(), "UPDATE wallet:alice SET max_credit = 0");
    expect(out).toEqual([{ err: "Found a value for field `credit`, with record `wallet:alice`, but field must conform to: $value <= $this.max_credit" }]);
    noSecret(out);
    // root: SurrealDB's text, value included
    expect(await run(ds, rootSession(), "UPDATE wallet:alice SET max_credit = 0")).toEqual([
      { err: "Found 734215 for field `credit`, with record `wallet:alice`, but field must conform to: $value <= $this.max_credit" },
    ]);
  });

  it("a hidden field whose TYPE was tightened after data exists (schema drift) names no value", async () => {
    const ds = await setUp();
    const out = await run(ds, mal(), "UPDATE shared:1 SET x = 1");
    expect(out).toEqual([{ err: "Found a value for field `code`, with record `shared:1`, but expected a int" }]);
    expect(await run(ds, rootSession(), "UPDATE shared:1 SET x = 1")).toEqual([
      { err: "Found 'SECRET_code_1' for field `code`, with record `shared:1`, but expected a int" },
    ]);
  });

  it("a hidden nested field makes its visible parent's value unprintable", async () => {
    const ds = await setUp("DEFINE FIELD OVERWRITE code ON shared TYPE string PERMISSIONS FOR select NONE; DEFINE FIELD OVERWRITE nest ON shared FLEXIBLE TYPE string;");
    const out = await run(ds, mal(), "UPDATE shared:1 SET x = 1");
    expect(out).toEqual([{ err: "Found a value for field `nest`, with record `shared:1`, but expected a string" }]);
    expect(await run(ds, rootSession(), "UPDATE shared:1 SET x = 1")).toEqual([
      { err: "Found { open: 1, pin: 'SECRET_pin_1' } for field `nest`, with record `shared:1`, but expected a string" },
    ]);
  });

  it("the client's own value in a visible field keeps SurrealDB's text", async () => {
    const ds = await setUp("DEFINE FIELD OVERWRITE code ON shared TYPE string PERMISSIONS FOR select NONE;");
    expect(await run(ds, mal(), "UPDATE shared:1 SET max = 'x'; UPDATE wallet:alice SET max_credit = 'lots'")).toEqual([
      { ok: [{ id: "shared:1", max: "x", nest: { open: 1 } }] },
      { err: "Found 'lots' for field `max_credit`, with record `wallet:alice`, but expected a int" },
    ]);
  });

  it("a write-only table (F11's class) with a TYPE added later: neither the value nor the record id", async () => {
    const ds = await setUp();
    const upsert = compat === 2 ? "UPSERT dropbox:7 SET x = 2" : "UPDATE dropbox:7 SET x = 2";
    const out = await run(ds, mal(), `UPDATE dropbox:7 SET x = 1; ${upsert}; INSERT INTO dropbox {id: dropbox:7} ON DUPLICATE KEY UPDATE x = 3`);
    for (const o of out.slice(0, 2)) expect(o).toEqual({ err: "Found a value for field `secret`, but expected a int" });
    noSecret(out);
    expect(await run(ds, rootSession(), "UPDATE dropbox:7 SET x = 1")).toEqual([
      { err: "Found 'SECRET_dropbox_7' for field `secret`, with record `dropbox:7`, but expected a int" },
    ]);
  });

  it("a record the client creates with its own rights holds only what it wrote: SurrealDB's text, also in a write-only table", async () => {
    const ds = await setUp();
    expect(await run(ds, mal(), "CREATE dropbox:8 SET secret = 'mine'")).toEqual([{ err: "Found 'mine' for field `secret`, with record `dropbox:8`, but expected a int" }]);
  });

  it("a VALUE clause failing on a hidden value reports the field, not the clause's own text", async () => {
    const ds = await setUp("DEFINE FIELD OVERWRITE code ON shared TYPE string PERMISSIONS FOR select NONE; DEFINE FIELD OVERWRITE tok ON shared VALUE <int>$value PERMISSIONS FOR select NONE;");
    const out = await run(ds, mal(), "UPDATE shared:1 SET x = 4");
    expect(out).toEqual([{ err: "Found a value for field `tok`, with record `shared:1`, but its VALUE clause failed" }]);
    expect(await run(ds, rootSession(), "UPDATE shared:1 SET x = 4")).toEqual([{ err: "Expected a int but cannot convert 'SECRET_tok_1' into a int" }]);
  });

  it("a VALUE clause of a visible field reading a hidden one through $this is judged by the whole record", async () => {
    const ds = await setUp("DEFINE FIELD OVERWRITE code ON shared TYPE string PERMISSIONS FOR select NONE; DEFINE FIELD probe ON shared VALUE <int>$this.tok;");
    expect(await run(ds, mal(), "UPDATE shared:1 SET x = 5")).toEqual([{ err: "Found a value for field `probe`, with record `shared:1`, but its VALUE clause failed" }]);
  });

  it("a field clause's THROW keeps the schema author's words", async () => {
    const ds = await setUp("DEFINE FIELD OVERWRITE code ON shared TYPE string PERMISSIONS FOR select NONE; DEFINE FIELD probe ON shared VALUE { THROW 'no probing' };");
    expect(await run(ds, mal(), "UPDATE shared:1 SET x = 5")).toEqual([{ err: "An error occurred: no probing" }]);
  });

  it("a READONLY hidden field answers the same whatever value is sent (no guess-confirm oracle), and keeps its value", async () => {
    const ds = await setUp();
    const guesses = await run(ds, mal(), "UPDATE ro3:1 SET secret = 'SECRET_ro3' RETURN NONE; UPDATE ro3:1 SET secret = 'guess' RETURN NONE; UPDATE ro3:1 UNSET secret RETURN NONE; UPDATE ro3:1 MERGE { secret: 'x' } RETURN NONE");
    expect(guesses).toEqual([{ ok: [] }, { ok: [] }, { ok: [] }, { ok: [] }]);
    expect(await run(ds, rootSession(), "SELECT VALUE secret FROM ro3:1")).toEqual([{ ok: ["SECRET_ro3"] }]);
    // a visible READONLY field keeps SurrealDB's error
    expect(await run(ds, mal(), "UPDATE ro3:1 SET open = 'x'")).toEqual([{ err: "Found changed value for field `open`, with record `ro3:1`, but field is readonly" }]);
    // root: SurrealDB's oracle-shaped answers (root may select it anyway)
    expect(await run(ds, rootSession(), "UPDATE ro3:1 SET secret = 'guess'")).toEqual([{ err: "Found changed value for field `secret`, with record `ro3:1`, but field is readonly" }]);
  });
  it("a hidden READONLY field of a record stored without it: 1.x's TYPE error names no value, 2.x leaves it NONE", async () => {
    const ds = await setUp(
      "DEFINE TABLE ro4 SCHEMALESS PERMISSIONS FOR select, update FULL; DEFINE FIELD stamp ON ro4 TYPE datetime VALUE time::now() READONLY PERMISSIONS FOR select NONE; OPTION IMPORT; CREATE ro4:1;",
    );
    const out = await run(ds, mal(), "UPDATE ro4:1 SET n = 1");
    if (compat === 1) expect(out).toEqual([{ err: "Found a value for field `stamp`, with record `ro4:1`, but expected a datetime" }]);
    else expect(out).toEqual([{ ok: [{ id: "ro4:1", n: 1 }] }]);
    // the VALUE never ran: nothing was stored in the hidden field
    expect(await run(ds, rootSession(), "SELECT * FROM ro4:1")).toEqual([{ ok: [compat === 1 ? { id: "ro4:1" } : { id: "ro4:1", n: 1 }] }]);
  });
});

describe.each([1, 2] as const)("ASSERT on a field left NONE (compat %i)", (compat) => {
  it("an option<…> or any field skips its ASSERT on NONE; an untyped field does so in 1.x only", async () => {
    const ds = newDs({ compat });
    const out = await run(
      ds,
      rootSession(),
      "DEFINE FIELD a ON t TYPE option<int> ASSERT $value > 0; DEFINE FIELD c ON t3 TYPE any ASSERT $value > 0; DEFINE FIELD b ON t2 ASSERT $value > 0; CREATE t:1; CREATE t3:1; CREATE t2:1; CREATE t:2 SET a = 0",
    );
    expect(out.slice(3)).toEqual([
      { ok: [{ id: "t:1" }] },
      { ok: [{ id: "t3:1" }] },
      compat === 2 ? { err: "Found NONE for field `b`, with record `t2:1`, but field must conform to: $value > 0" } : { ok: [{ id: "t2:1" }] },
      { err: "Found 0 for field `a`, with record `t:2`, but field must conform to: $value > 0" },
    ]);
  });
});
