// encoding:: builtins: base64 as SurrealDB does it (standard alphabet, no padding, padding refused).

import { fn, incorrectArguments, type BuiltinTable } from "./registry.js";

const B64 = /^[A-Za-z0-9+/]*$/;

export const encodingFunctions: BuiltinTable = {
  "encoding::base64::encode": fn(["bytes"], ([b]) => Buffer.from(b as Uint8Array).toString("base64").replace(/=+$/, "")),
  "encoding::base64::decode": fn(["string"], ([s]) => {
    const text = s as string;
    if (!B64.test(text) || text.length % 4 === 1) throw incorrectArguments("encoding::base64::decode", "invalid base64");
    return new Uint8Array(Buffer.from(text, "base64"));
  }),
};
