// exec/expressions/params: a `$name` no variable holds is a DEFINE PARAM lookup, which needs a namespace and database
// (SurrealDB 1.5.4 and 2.6.0: "Specify a namespace to use"); engine variables answer without one.

import { describe, expect, it } from "vitest";
import { newSession } from "../../../src/exec/session.js";
import { newDs, run } from "../helpers.js";

const nowhere = () => newSession({ actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

describe.each([1, 2] as const)("parameters without a namespace (compat %i)", (compat) => {
  it("an unset parameter and SELECT over values need a namespace; LET, $auth and $this do not", async () => {
    const out = await run(newDs({ compat }), nowhere(), "RETURN $p; LET $x = 1; RETURN $x; RETURN $auth; RETURN $this; SELECT * FROM [1]; RETURN $value");
    const ns = { err: "Specify a namespace to use" };
    expect(out).toEqual([ns, { ok: null }, { ok: 1 }, { ok: null }, { ok: null }, ns, ns]);
  });

  it("definitions, writes, reads and INFO FOR DB need a namespace; after USE NS, a database (oracle, both versions)", async () => {
    const text = "RETURN 1; DEFINE PARAM $x VALUE 1; RETURN $x; CREATE t:1; SELECT * FROM t; INFO FOR DB; LET $a = 1; RETURN $a; USE NS n; RETURN $x; DEFINE PARAM $y VALUE 1; INFO FOR NS";
    const [ns, db] = [{ err: "Specify a namespace to use" }, { err: "Specify a database to use" }];
    const info = compat === 1 ? { databases: {}, tokens: {}, users: {} } : { accesses: {}, databases: {}, users: {} };
    expect(await run(newDs({ compat }), nowhere(), text)).toEqual([{ ok: 1 }, ns, ns, ns, ns, ns, { ok: null }, { ok: 1 }, { ok: null }, db, db, { ok: info }]);
  });

  it("with a namespace but no database, the database is asked for", async () => {
    const out = await run(newDs({ compat }), nowhere(), "USE NS a; RETURN $p");
    expect(out[1]).toEqual({ err: "Specify a database to use" });
  });
});

describe.each([1, 2] as const)("projected parameters (compat %i)", (compat) => {
  it("`$this` names its column `this`; a path from a parameter sets no column", async () => {
    const out = await run(newDs({ compat }), newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } }), "SELECT $this, $parent, $this.a, $this[0] FROM [{a: 1}]");
    expect(out).toEqual([{ ok: [{ this: { a: 1 }, parent: null }] }]);
  });
});
