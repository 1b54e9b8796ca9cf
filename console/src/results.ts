// Showing POST /sql answers: one block per statement with its status and time, errors in their own colour.

import type { StatementResult } from "./api.js";
import { h } from "./dom.js";

export function resultBlocks(results: readonly StatementResult[]): HTMLElement {
  return h(
    "div",
    { class: "results" },
    ...results.map((r, i) =>
      h(
        "div",
        { class: r.status === "OK" ? "result ok" : "result err" },
        h("div", { class: "result-head" }, `#${i + 1} ${r.status} ${r.time}`),
        h("pre", {}, r.status === "OK" ? JSON.stringify(r.result, null, 2) : String(r.result)),
      ),
    ),
  );
}
