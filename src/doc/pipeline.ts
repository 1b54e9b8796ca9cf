// doc/: the per-record pipeline's write entry — each write goes to the steps of its action (create.ts, update.ts, delete.ts).

import { createDocument } from "./create.js";
import { deleteDocument } from "./delete.js";
import type { DocEnv } from "./env.js";
import { updateDocument } from "./update.js";
import type { WriteRequest, WriteResult } from "./write.js";

const STEPS: { readonly [A in WriteRequest["action"]]: (env: DocEnv, req: WriteRequest) => Promise<WriteResult | undefined> } = {
  create: createDocument,
  update: updateDocument,
  delete: deleteDocument,
};

/** Create, update or delete one record: the steps of its action, in SurrealDB's order. */
export function writeDocument(env: DocEnv, req: WriteRequest): Promise<WriteResult | undefined> {
  return STEPS[req.action](env, req);
}
