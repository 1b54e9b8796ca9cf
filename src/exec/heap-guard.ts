// exec/: the process-wide memory guard (attack pass 7, E2). Values are capped one by one and results per query, yet
// what queries hold meanwhile (860 `LET`s of 1 MiB each, eight such queries at once) could take V8's heap to its limit,
// and V8 then ends the process: every client and a memory store's data with it. While the heap stands above a share
// of its limit, every client query's next look at the clock (budget.ts) stops it with QueryMemory: the queries holding
// the memory end and drop it, and the server lives on.

import { getHeapStatistics } from "node:v8";

/** The share of V8's heap limit above which client queries are stopped. */
export const HEAP_PRESSED_AT = 0.6;

/** How often the heap is read (ms): reading it costs about a microsecond. */
const READ_EVERY_MS = 5;

let readAt = -Infinity;
let pressed = false;

/** Is the heap above HEAP_PRESSED_AT of its limit (read at most every READ_EVERY_MS; `now` is performance.now())? */
export function heapPressed(now: number): boolean {
  if (now - readAt < READ_EVERY_MS) return pressed;
  readAt = now;
  const heap = getHeapStatistics();
  pressed = heap.used_heap_size > HEAP_PRESSED_AT * heap.heap_size_limit;
  return pressed;
}
