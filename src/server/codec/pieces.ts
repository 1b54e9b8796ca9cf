// Large answers encoded a piece at a time (attack pass 11, I5): encoding an answer was one synchronous step, and 64 MiB
// of JSON (or 4 million small values) held the event loop for 0.2–4 s. A small answer is encoded whole as before (the
// fast path); a larger one is walked down to parts small enough to encode at once, handed in order to the format's
// sink, with a turn of the event loop after each ANSWER_PIECE of work. The bytes are those encodeValue writes.

import { textPieces } from "../../value/pieces.js";
import { RecordId, isValueObject, type Value } from "../../value/types.js";

/** Work (about bytes of output: a string's length, NODE a scalar) encoded between two turns of the event loop. */
export const ANSWER_PIECE = 256 * 1024;

/** Work a scalar, a typed value (record id, datetime…) or the frame of an array or object counts. */
const NODE = 16;

/**
 * A wire format's writer of one value in parts (json.ts, cbor.ts): what `value` writes at once and what the other calls
 * write around the parts of a large array, object, string or bytes value, together, is what the format's encoder writes
 * for the whole. `depth` is the nesting the encoder would be at.
 */
export interface PieceSink {
  value(v: Value, depth: number): void;
  openArray(length: number, depth: number): void;
  /** Before the array's `i`th item. */
  item(i: number): void;
  closeArray(): void;
  openObject(size: number, depth: number): void;
  /** The `i`th key, in the encoder's (sorted) order, before its value. */
  key(k: string, i: number): void;
  closeObject(): void;
  openText(s: string): void;
  /** A piece of the string, never cut inside a surrogate pair. */
  text(piece: string): void;
  closeText(): void;
  /** The text a typed value is written as, as a string is (JSON: a record id's text), to go out in pieces; else undefined. */
  leafText(v: Value): string | undefined;
  openBytes(b: Uint8Array): void;
  bytes(piece: Uint8Array, first: boolean): void;
  closeBytes(): void;
  /** The bytes written since the last take, in order. */
  take(): Uint8Array[];
}

/** The work of encoding `v`, counted only until it passes `limit` (then some number above it). */
export function workWithin(v: Value, limit: number): number {
  if (typeof v === "string") return NODE + v.length;
  if (typeof v !== "object" || v === null) return NODE;
  if (v instanceof Uint8Array) return NODE + v.length;
  // a record id's key is any value (`type::thing('t', $long)`)
  if (v instanceof RecordId) return NODE + workWithin(v.id, limit);
  let n = NODE;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && n <= limit; i++) n += workWithin(v[i], limit - n);
  } else if (isValueObject(v)) {
    for (const k in v) {
      n += k.length + workWithin(v[k], limit - n);
      if (n > limit) break;
    }
  }
  return n;
}

/** Is encoding `v` at most one piece of work (the fast path: encode it whole, at once)? */
export const isSmallAnswer = (v: Value): boolean => workWithin(v, ANSWER_PIECE) <= ANSWER_PIECE;

/** Thrown between pieces once the receiver is gone: the rest is not encoded. */
class Gone extends Error {}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One value's encoding in progress: its pieces so far, and the work since the last turn. */
class Walk {
  readonly pieces: Uint8Array[] = [];
  private work = 0;

  constructor(
    private readonly sink: PieceSink,
    private readonly gone: () => boolean,
  ) {}

  /** `v` whole when small, else in parts; a promise only when a turn came (or comes) on the way. */
  part(v: Value, depth: number): Promise<void> | undefined {
    const w = workWithin(v, ANSWER_PIECE);
    if (w > ANSWER_PIECE) {
      if (Array.isArray(v)) return this.array(v, depth);
      if (typeof v === "string") return this.text(v);
      if (v instanceof Uint8Array) return this.bytes(v);
      if (isValueObject(v)) return this.object(v, depth);
      const text = this.sink.leafText(v);
      if (text !== undefined) return this.text(text);
    }
    // small, or a typed value written whole
    this.sink.value(v, depth);
    return this.done(w);
  }

  /** What is written so far, as bytes. */
  finish(): Uint8Array[] {
    this.pieces.push(...this.sink.take());
    return this.pieces;
  }

  private done(w: number): Promise<void> | undefined {
    this.work += w;
    return this.work >= ANSWER_PIECE ? this.pause() : undefined;
  }

  /** The piece goes to the list, the event loop turns; a receiver gone meanwhile ends the walk. */
  private async pause(): Promise<void> {
    this.work = 0;
    this.pieces.push(...this.sink.take());
    await turn();
    if (this.gone()) throw new Gone();
  }

  private async array(a: readonly Value[], depth: number): Promise<void> {
    this.sink.openArray(a.length, depth);
    for (let i = 0; i < a.length; i++) {
      this.sink.item(i);
      const p = this.part(a[i], depth + 1);
      if (p) await p;
    }
    this.sink.closeArray();
  }

  private async object(o: Readonly<Record<string, Value>>, depth: number): Promise<void> {
    const keys = Object.keys(o).sort();
    this.sink.openObject(keys.length, depth);
    for (let i = 0; i < keys.length; i++) {
      this.sink.key(keys[i]!, i);
      const p = this.part(o[keys[i]!], depth + 1);
      if (p) await p;
    }
    this.sink.closeObject();
  }

  private async text(s: string): Promise<void> {
    this.sink.openText(s);
    for (const piece of textPieces(s, ANSWER_PIECE)) {
      this.sink.text(piece);
      const p = this.done(piece.length);
      if (p) await p;
    }
    this.sink.closeText();
  }

  private async bytes(b: Uint8Array): Promise<void> {
    this.sink.openBytes(b);
    for (let at = 0; at < b.length; at += ANSWER_PIECE) {
      this.sink.bytes(b.subarray(at, at + ANSWER_PIECE), at === 0);
      const p = this.done(ANSWER_PIECE);
      if (p) await p;
    }
    this.sink.closeBytes();
  }
}

/**
 * `v` encoded through `sink` a piece at a time, with a turn of the event loop after each ANSWER_PIECE of work: the
 * pieces in order (together the encoder's bytes for `v`), or undefined once `gone()` (checked after each turn).
 */
export async function encodeWithSink(sink: PieceSink, v: Value, gone: () => boolean = () => false): Promise<Uint8Array[] | undefined> {
  // a receiver gone while the answer waited its turn
  if (gone()) return undefined;
  const walk = new Walk(sink, gone);
  try {
    await walk.part(v, 0);
  } catch (e) {
    if (e instanceof Gone) return undefined;
    throw e;
  }
  return walk.finish();
}

/** The large answer being encoded now: the next waits for it (see oneAtATime). */
let current: Promise<unknown> = Promise.resolve();

/**
 * `work` (a large answer's encoding) once every large answer asked before it is done: the server's meter counts an
 * answer's bytes once it is sent, so answers encoded side by side over many turns would hold uncounted bytes each
 * (many sockets, many 64 MiB answers); one at a time holds what the whole-value encoder held.
 */
export function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = current.then(work);
  current = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Bytes copied at once when pieces are joined into one frame. */
const JOIN_STEP = 8 * 1024 * 1024;

/** The pieces as one buffer (a WebSocket answer is one frame), copied JOIN_STEP at a time with a turn between; undefined once `gone()`. */
export async function joinPieces(pieces: Uint8Array[], gone: () => boolean = () => false): Promise<Uint8Array | undefined> {
  if (pieces.length === 1) return pieces[0]!;
  let total = 0;
  for (const p of pieces) total += p.length;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  let since = 0;
  for (let i = 0; i < pieces.length; i++) {
    out.set(pieces[i]!, at);
    at += pieces[i]!.length;
    since += pieces[i]!.length;
    // copied pieces are let go as the frame fills
    pieces[i] = EMPTY;
    if (since >= JOIN_STEP) {
      since = 0;
      await turn();
      if (gone()) return undefined;
    }
  }
  return out;
}

const EMPTY = new Uint8Array(0);
