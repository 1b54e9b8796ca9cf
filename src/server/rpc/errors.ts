// RPC error codes and texts (protocol.md §7.2); every failure a handler raises becomes one of these.

import { SurrealError } from "../../errors/index.js";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const DATABASE_ERROR = -32000;

export const parseError = () => new RpcError(PARSE_ERROR, "Parse error");
export const invalidRequest = () => new RpcError(INVALID_REQUEST, "Invalid Request");
export const methodNotFound = () => new RpcError(METHOD_NOT_FOUND, "Method not found");
export const invalidParams = () => new RpcError(INVALID_PARAMS, "Invalid params");

/** `There was a problem with the database: <msg>` — SurrealDB's wrapping of core errors. */
export function databaseError(message: string): RpcError {
  return new RpcError(DATABASE_ERROR, `There was a problem with the database: ${message}`);
}

/** Map anything a handler threw to the RPC error the client sees; unexpected errors reveal nothing. */
export function toRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  if (e instanceof SurrealError) return databaseError(e.message);
  return databaseError("An internal error occurred");
}
