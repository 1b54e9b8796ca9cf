// bytes:: builtins.

import { fn, type BuiltinTable } from "./registry.js";

export const bytesFunctions: BuiltinTable = {
  "bytes::len": fn(["bytes"], ([b]) => BigInt((b as Uint8Array).length)),
};
