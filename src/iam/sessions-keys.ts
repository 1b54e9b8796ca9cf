// iam/: where the session registry and the refresh-token book keep their state in the shared store: outside every
// namespace's key range (as the identity book's `\x01ie` keys), so every node reads and writes the same entries.

import { prefixRange } from "../store/kv/bytes.js";
import type { Bytes, Key, KeyRange } from "../store/kv/types.js";

/**
 * `\x01ss` a registered session (JSON entry), `\x01sk` a kill not yet seen by the session's node (ms),
 * `\x01sn` a node's heartbeat (ms), `\x01sr` a revoked token id until the token's expiry (ms), `\x01sc` a kill by
 * identity (its filter and killer's reach → the time of the kill, JSON),
 * `\x01rf` a refresh-token family (JSON state), `\x01rt` a refresh token's id (an earlier version's index: swept),
 * `\x01ra` family + `\0` + an access token id the family issued (ms until its expiry).
 */
export type StateKind = "ss" | "sk" | "sn" | "sr" | "sc" | "rf" | "rt" | "ra";

const utf8 = new TextEncoder();
const text = new TextDecoder();

export const stateKey = (kind: StateKind, id: string): Key => utf8.encode(`\u0001${kind}\u0000${id}`);
export const stateRange = (kind: StateKind): KeyRange => prefixRange(utf8.encode(`\u0001${kind}\u0000`));
/** The keys of `kind` whose id starts with `idPrefix`. */
export const statePrefixRange = (kind: StateKind, idPrefix: string): KeyRange => prefixRange(utf8.encode(`\u0001${kind}\u0000${idPrefix}`));
/** The id part of a key made by stateKey. */
export const stateId = (key: Key): string => text.decode(key.subarray(4));

export const encodeJson = (v: unknown): Bytes => utf8.encode(JSON.stringify(v));
export const decodeJson = <T>(b: Bytes): T => JSON.parse(text.decode(b)) as T;
