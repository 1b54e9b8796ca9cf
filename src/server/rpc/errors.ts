// RPC error codes and texts (protocol.md §7.2); every failure a handler raises becomes one of these.

import { databaseProblem, QUERY_MESSAGES, RPC_DATABASE_ERROR, RPC_MESSAGES, type RpcCode } from "../../errors/catalogue.js";
import { CodedError, SurrealError } from "../../errors/index.js";
import { TooManyAttempts } from "../../iam/throttle.js";

/** An RPC error as the client receives it: a JSON-RPC code and SurrealDB's text. */
export class RpcError extends CodedError<RpcCode> {
  constructor(code: RpcCode, message: string) {
    super(code, message);
    this.name = "RpcError";
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const DATABASE_ERROR = RPC_DATABASE_ERROR;

const rpcError = (code: keyof typeof RPC_MESSAGES) => () => new RpcError(code, RPC_MESSAGES[code]);
export const parseError = rpcError(PARSE_ERROR);
export const invalidRequest = rpcError(INVALID_REQUEST);
export const methodNotFound = rpcError(METHOD_NOT_FOUND);
export const invalidParams = rpcError(INVALID_PARAMS);

/** `There was a problem with the database: <msg>` — SurrealDB's wrapping of core errors. */
export function databaseError(message: string): RpcError {
  return new RpcError(DATABASE_ERROR, databaseProblem(message));
}

/** `Error: <msg>` — SurrealDB's RpcError::Thrown (2.x: a CBOR value it refuses). */
export function thrownError(message: string): RpcError {
  return new RpcError(DATABASE_ERROR, `Error: ${message}`);
}

/** Map anything a handler threw to the RPC error the client sees; unexpected errors reveal nothing. */
export function toRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  // ours: the text as it stands, so a client can read the wait
  if (e instanceof TooManyAttempts) return new RpcError(DATABASE_ERROR, e.message);
  if (e instanceof SurrealError) return databaseError(e.message);
  return databaseError(QUERY_MESSAGES.Internal());
}
