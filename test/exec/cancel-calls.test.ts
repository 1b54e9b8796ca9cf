// A query cancelled while it runs nested builtin calls (attack pass 8's re-check of E6: a closed socket did not end
// `array::sort(array::sort(…))`): the checkpoint before each call sees the cancellation. No timings: the time limit is
// a minute, so only the cancellation can end the query within vitest's timeout.

import { describe, expect, it } from "vitest";
import { newDs, recordSession, run } from "./helpers.js";

const CANCELLED = "The query was not executed due to a cancelled transaction";
const SORTS = "array::len(array::sort(array::sort(array::sort(array::sort(array::sort(array::sort(string::split(string::repeat('hgfedcba', 120000), ''))))))))";

describe.each([1, 2] as const)("compat %i: cancelling nested builtin calls", (compat) => {
  it("ends with the cancellation error once the signal fires", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 60_000 });
    const c = new AbortController();
    setTimeout(() => c.abort(), 0);
    expect(await run(ds, recordSession("user", "u1"), `RETURN ${SORTS}`, c.signal)).toEqual([{ err: CANCELLED }]);
  }, 60_000);
});
