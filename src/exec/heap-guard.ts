// exec/: the process-wide memory guard (attack pass 7, E2). Values are capped one by one and results per query, yet
// what queries hold meanwhile (860 `LET`s of 1 MiB each, eight such queries at once) could take V8's heap to its limit,
// and V8 then ends the process: every client and a memory store's data with it. While the heap stands above a share
// of its limit, the client queries holding much in variables stop at their next look at the clock (budget.ts) with
// QueryMemory and drop it; queries holding little go on (pass 8, F2: stopping whoever looked next let one identity fail
// everyone's queries). Past a higher share, every client query stops.

import { getHeapStatistics } from "node:v8";

/** The share of V8's heap limit above which queries holding HOLDING_MUCH or more are stopped. */
export const HEAP_PRESSED_AT = 0.6;
/** The share above which every client query is stopped. */
export const HEAP_CRITICAL_AT = 0.85;
/** Bytes of variables (as values measure: src/value/size.ts) a query holds that make it give way first. */
export const HOLDING_MUCH = 4 * 1024 * 1024;

/** How often the heap is read (ms): reading it costs about a microsecond. */
const READ_EVERY_MS = 5;

export type HeapState = "ok" | "pressed" | "critical";

/** The heap's used share of its limit, as V8 tells it. */
function v8Share(): number {
  const heap = getHeapStatistics();
  return heap.used_heap_size / heap.heap_size_limit;
}

/** Where the share is read (tests replace it). */
let usedShare = v8Share;

let readAt = -Infinity;
let state: HeapState = "ok";

/** The heap's state (read at most every READ_EVERY_MS; `now` is performance.now()). */
export function heapState(now: number): HeapState {
  if (now - readAt < READ_EVERY_MS) return state;
  readAt = now;
  const share = usedShare();
  state = share > HEAP_CRITICAL_AT ? "critical" : share > HEAP_PRESSED_AT ? "pressed" : "ok";
  return state;
}

/** Tests: read the used share from `read` (undefined: V8's own figures again). */
export function setHeapShareReader(read: (() => number) | undefined): void {
  usedShare = read ?? v8Share;
  readAt = -Infinity;
}
