// RPC request validation (protocol.md §7.2): decoded message ⇒ { id, method, params } or an RpcError.

import type { Compat } from "../../exec/session.js";
import { Datetime, Uuid, isValueObject, type Value } from "../../value/types.js";
import { RpcError, invalidRequest } from "./errors.js";

export interface RpcRequest {
  /** Present only when the request carried a usable id (NONE / NULL ids are answered without one). */
  readonly id: Value;
  readonly hasId: boolean;
  readonly method: string;
  readonly params: Value[];
}

/** The id of a message if it is of an allowed type, for answering even an invalid request. */
export function usableId(message: Value): { id: Value; hasId: boolean } {
  if (!isValueObject(message)) return { id: undefined, hasId: false };
  const id = message["id"];
  if (id === undefined || id === null) return { id: undefined, hasId: false };
  if (typeof id === "string" || typeof id === "bigint" || typeof id === "number" || id instanceof Uuid || id instanceof Datetime) return { id, hasId: true };
  return { id: undefined, hasId: false };
}

export class InvalidRequest extends RpcError {
  constructor(
    readonly id: Value,
    readonly hasId: boolean,
  ) {
    const base = invalidRequest();
    super(base.code, base.message);
  }
}

/** Validate a decoded message. v1 method names are case-insensitive, v2 exact. Throws InvalidRequest. */
export function parseRequest(message: Value, compat: Compat): RpcRequest {
  if (!isValueObject(message)) throw new InvalidRequest(undefined, false);
  const raw = message["id"];
  const { id, hasId } = usableId(message);
  if (raw !== undefined && raw !== null && !hasId) throw new InvalidRequest(undefined, false);
  if (compat === 2) {
    const version = message["version"];
    const ok = version === undefined || version === null || version === 1n || version === 2n || version === 1 || version === 2;
    if (!ok) throw new InvalidRequest(id, hasId);
  }
  const method = message["method"];
  if (typeof method !== "string") throw new InvalidRequest(id, hasId);
  const params = message["params"];
  return { id, hasId, method: compat === 1 ? method.toLowerCase() : method, params: Array.isArray(params) ? params : [] };
}
