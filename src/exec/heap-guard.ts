// exec/: the process-wide memory guard (attack pass 7, E2). Values are capped one by one and results per query, yet
// what queries hold meanwhile (860 `LET`s of 1 MiB each, eight such queries at once) could take V8's heap to its limit,
// and V8 then ends the process: every client and a memory store's data with it. Every client query carries a charge:
// the bytes it has produced (builtin results, casts, operators, subquery rows, LETs, answers: budget.ts), wherever it
// then holds them (a variable, an array literal waiting on sleep(), its answers), summed per identity too. While the
// heap stands above a share of its limit, the queries charged much, and every query of an identity charged much in
// all, are stopped and woken (from sleep() or the scheduler's line) with QueryMemory; queries of others go on (pass 8,
// F2; pass 9, G1: memory held outside LETs went uncounted, and then everyone's queries were refused). Past the critical
// share only the identities charged much are refused, as long as charges explain the pressure; when they do not, or
// past the last share, every client query stops: the process must never run out of memory.

import { getHeapStatistics } from "node:v8";
import { constants, PerformanceObserver } from "node:perf_hooks";

/** The share of V8's heap limit above which queries charged HOLDING_MUCH or more are stopped. */
export const HEAP_PRESSED_AT = 0.6;
/** The share above which identities charged HOLDING_MUCH in all are refused (or everyone: see `explained`). */
export const HEAP_CRITICAL_AT = 0.85;
/** The share above which every client query is stopped. */
export const HEAP_LAST_AT = 0.93;
/** Bytes charged to a query (as values measure: src/value/size.ts) that make it give way first. */
export const HOLDING_MUCH = 4 * 1024 * 1024;
/** Bytes charged to one identity's queries together that make all of them give way under pressure. */
export const IDENTITY_HOLDING_MUCH = 4 * HOLDING_MUCH;

/** How often the heap is read (ms): reading it costs about a microsecond. */
const READ_EVERY_MS = 5;

export type HeapState = "ok" | "pressed" | "critical" | "last";

/** One identity's charges together. */
interface Holder {
  readonly identity: unknown;
  held: number;
  queries: number;
}

/** What one client query is charged, and whether the guard stopped it (shared by the budgets made `within` its own). */
export interface Charge {
  held: number;
  stopped: boolean;
  readonly holder: Holder;
  /** Waits (sleep(), the scheduler's line, the hash gate) to end at once when the query is stopped. */
  readonly wakers: Set<() => void>;
}

const live = new Set<Charge>();
const holders = new Map<unknown, Holder>();
/** Charge of the queries of identities charged much ended since V8's last full collection: their memory is still counted in the heap. */
let released = 0;

/** V8's full collections free what stopped queries held: from then on their charges no longer explain the heap. */
new PerformanceObserver((list) => {
  const major = (e: unknown): boolean => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
  if (list.getEntries().some(major)) released = 0;
}).observe({ entryTypes: ["gc"] });

/** A client query's charge, counted with its identity's until `closeCharge`. */
export function openCharge(identity: unknown): Charge {
  let holder = holders.get(identity);
  if (holder === undefined) holders.set(identity, (holder = { identity, held: 0, queries: 0 }));
  holder.queries++;
  const charge: Charge = { held: 0, stopped: false, holder, wakers: new Set() };
  live.add(charge);
  return charge;
}

/** Adds `bytes` to a query's charge and its identity's. */
export function addCharge(charge: Charge, bytes: number): void {
  charge.held += bytes;
  charge.holder.held += bytes;
}

/** The query ended: what it held is its identity's no more (and garbage until the next full collection). */
export function closeCharge(charge: Charge): void {
  if (!live.delete(charge)) return;
  const holder = charge.holder;
  // a query of an identity charged much (a holder the guard looks for) leaves garbage that explains the heap for a while
  if (holder.held >= HOLDING_MUCH) released += charge.held;
  holder.held -= charge.held;
  if (--holder.queries === 0) holders.delete(holder.identity);
}

/** The heap's used share of its limit, as V8 tells it. */
function v8Share(): number {
  const heap = getHeapStatistics();
  return heap.used_heap_size / heap.heap_size_limit;
}

/** Where the share is read (tests replace it). */
let usedShare = v8Share;

let readAt = -Infinity;

/** Charges explain the pressure: a live identity or a query ended since the last full collection was charged much. */
function explained(): boolean {
  if (released >= HOLDING_MUCH) return true;
  for (const h of holders.values()) if (h.held >= HOLDING_MUCH) return true;
  return false;
}

const NONE = (_c: Charge): boolean => false;
const ALL = (_c: Charge): boolean => true;
const CHARGED_IDENTITY = (c: Charge): boolean => c.holder.held >= HOLDING_MUCH;
const CHARGED_MUCH = (c: Charge): boolean => c.held >= HOLDING_MUCH || c.holder.held >= IDENTITY_HOLDING_MUCH;

/** The queries the heap's state stops: under pressure the large ones and large identities', past the critical share the charged identities' (or all). */
function stopsAt(at: HeapState): (c: Charge) => boolean {
  if (at === "ok") return NONE;
  if (at === "pressed") return CHARGED_MUCH;
  return at === "critical" && explained() ? CHARGED_IDENTITY : ALL;
}

/** What the last read of the heap stops. */
let stops = NONE;

/** Stops `c` if the heap's state (as last read) calls for it, waking its waits; whether it is stopped. */
function judge(c: Charge): boolean {
  if (!c.stopped && stops(c)) {
    c.stopped = true;
    for (const wake of c.wakers) wake();
  }
  return c.stopped;
}

/** Reads the heap's state (at most every READ_EVERY_MS; `now` is performance.now()): each read stops every live query it calls for. */
function readHeap(now: number): void {
  if (now - readAt < READ_EVERY_MS) return;
  readAt = now;
  const share = usedShare();
  const state: HeapState = share > HEAP_LAST_AT ? "last" : share > HEAP_CRITICAL_AT ? "critical" : share > HEAP_PRESSED_AT ? "pressed" : "ok";
  stops = stopsAt(state);
  if (stops !== NONE) for (const c of live) judge(c);
}

/** Whether the guard stops the query charged `c` (budget.ts, at each look at the clock). */
export function stopped(c: Charge, now: number): boolean {
  readHeap(now);
  return judge(c);
}

/** Tests: read the used share from `read` (undefined: V8's own figures again); `released` forgets ended holders (a full collection). */
export function setHeapShareReader(read: (() => number) | undefined): void {
  usedShare = read ?? v8Share;
  readAt = -Infinity;
  stops = NONE;
  released = 0;
}

/** Tests and operators: the live client queries' charges. */
export function liveCharges(): readonly Charge[] {
  return [...live];
}
