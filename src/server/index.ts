// Public surface of the network layer: createServer plus the pieces other layers and tests reuse.

export { createServer, type SurrealServer } from "./http.js";
export {
  defaultLimits,
  resolveContext,
  serverVersion,
  silentLogger,
  type AuthService,
  type Logger,
  type ServerContext,
  type ServerEngine,
  type ServerLimits,
  type ServerOptions,
  type SigninResult,
} from "./types.js";
export { decodeCbor, encodeCbor, parseJsonText, stringifyJson, decodeRpcMessage, encodeValue, type WireFormat } from "./codec/index.js";
export { dispatch } from "./rpc/dispatch.js";
export { invokeMethod, type RpcCall } from "./rpc/methods.js";
export { RpcError } from "./rpc/errors.js";
