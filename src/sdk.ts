// surql-auth as an engine of the official `surrealdb` SDK (2.x): `new Surreal({ engines: surqlAuthEngines(db) })`
// runs the SDK against an in-process datastore with no socket. Import from "surql-auth/sdk" (needs `surrealdb`).

import { ConnectionUnavailableError, Publisher, RpcEngine, parseRpcError, type ConnectionState, type DriverContext, type EngineEvents, type Engines, type LiveMessage } from "surrealdb";
import type { Connection, SurqlAuth } from "./index.js";
import { decodeCbor, encodeCbor } from "./server/codec/cbor.js";
import { databaseError, toRpcError } from "./server/rpc/errors.js";
import type { Value, ValueObject } from "./value/types.js";

/** A failure as the SDK's WebSocket and HTTP engines raise it: its ServerError subclass for the wire code and message. */
function sdkError(e: unknown): Error {
  const wire = toRpcError(e);
  return parseRpcError({ code: wire.code, message: wire.message });
}

/** One SDK connection = one surql-auth session; requests go through the same CBOR codec and RPC handlers as the server. */
class SurqlAuthEngine extends RpcEngine {
  readonly #db: SurqlAuth;
  readonly #publisher = new Publisher<EngineEvents>();
  #conn: Connection | undefined;
  features = new Set<never>();

  constructor(db: SurqlAuth, context: DriverContext) {
    super(context);
    this.#db = db;
  }

  open(state: ConnectionState): void {
    this._state = state;
    this.#conn = this.#db.connect();
    queueMicrotask(() => this.#publisher.publish("connected"));
  }

  async close(): Promise<void> {
    this._state = undefined;
    await this.#conn?.close();
    this.#conn = undefined;
    this.#publisher.publish("disconnected");
  }

  ready(): void {}

  subscribe<K extends keyof EngineEvents>(event: K, listener: (...payload: EngineEvents[K]) => void): () => void {
    return this.#publisher.subscribe(event, listener);
  }

  liveQuery(): AsyncIterable<LiveMessage> {
    throw sdkError(databaseError("Live Query was made, but is not supported"));
  }

  async send<Method extends string, Params extends unknown[] | undefined, Result>(request: { method: Method; params?: Params }): Promise<Result> {
    const conn = this.#conn;
    if (!conn) throw new ConnectionUnavailableError();
    const message = decodeCbor(this._context.codecs.cbor.encode({ id: 1, ...request }) as Uint8Array) as ValueObject;
    let result: Value;
    try {
      result = await conn.rpc(String(message["method"]), (message["params"] as Value[] | undefined) ?? []);
    } catch (e) {
      throw sdkError(e);
    }
    return this._context.codecs.cbor.decode(encodeCbor(result, { compat: this.#db.compat })) as Result;
  }
}

/** Engines for the SDK's `engines` option; connect with the URL `surql-auth://` (or `mem://`). */
export function surqlAuthEngines(db: SurqlAuth): Engines {
  const factory = (context: DriverContext) => new SurqlAuthEngine(db, context);
  return { "surql-auth": factory, mem: factory };
}
