// `--deny-funcs` (DatastoreOptions.deniedFunctions): a call of a denied function — a builtin by name or family, a
// custom `fn::` one, method syntax — answers SurrealDB's capability error; everything else runs. Both compats.

import { describe, expect, it } from "vitest";
import { newDs, rootSession, run } from "./helpers.js";

const denied = (name: string) => ({ err: `Function '${name}' is not allowed to be executed` });

describe.each([1, 2] as const)("compat %i", (compat) => {
  it("denies the named functions and families, and only those", async () => {
    const ds = newDs({ compat, auth: false, deniedFunctions: ["crypto", "fn::secret", "String::Len"] });
    await run(ds, rootSession(), "DEFINE FUNCTION fn::secret() { RETURN 1 }; DEFINE FUNCTION fn::open() { RETURN 2 }");
    const out = await run(ds, rootSession(), "RETURN crypto::md5('a'); RETURN string::len('ab'); RETURN 'ab'.len(); RETURN string::lowercase('A'); RETURN fn::secret(); RETURN fn::open(); RETURN fn::open2()");
    expect(out.slice(0, 6)).toEqual([denied("crypto::md5"), denied("string::len"), denied("string::len"), { ok: "a" }, denied("fn::secret"), { ok: 2 }]);
  });

  it("'*' denies every function; none denied by default", async () => {
    expect(await run(newDs({ compat, auth: false, deniedFunctions: ["*"] }), rootSession(), "RETURN math::abs(-1); RETURN 1 + 1")).toEqual([denied("math::abs"), { ok: 2 }]);
    expect(await run(newDs({ compat, auth: false }), rootSession(), "RETURN math::abs(-1)")).toEqual([{ ok: 1 }]);
  });
});
