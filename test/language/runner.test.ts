// test/language: runs every behaviour file under test/language/cases against a fresh Datastore per file and compat.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { toJson } from "../../src/value/index.js";
import { expectationsFor, parseLanguageFile, systemUserDefinition } from "./format.js";
import { sessionFor } from "./sessions.js";

const DIR = join(import.meta.dirname, "cases");

const files = readdirSync(DIR).filter((f) => f.endsWith(".surql")).sort();

describe("language files", () => {
  for (const file of files) {
    const spec = parseLanguageFile(readFileSync(join(DIR, file), "utf8"));
    for (const compat of spec.compat) {
      it(`${file} (compat ${compat})`, async () => {
        const ds = new Datastore({ compat, allowGuests: true });
        const defined = new Set<string>();
        for (const [i, step] of spec.steps.entries()) {
          if (step.as.kind === "system") {
            const user = systemUserDefinition(step.as.level, step.as.role);
            if (!defined.has(user.name)) {
              defined.add(user.name);
              const [r] = await ds.execute(user.text, sessionFor({ kind: "root" }, compat));
              expect(r?.status).toBe("OK");
            }
          }
          const expected = expectationsFor(step, compat);
          if (!expected) continue;
          const rs = await ds.execute(step.query, sessionFor(step.as, compat));
          const got = rs.map((r, j) => {
            const want = expected[j];
            if (r.status === "ERR") return { err: r.result };
            if (want && "okAny" in want) return { okAny: true };
            return { ok: toJson(r.result, { compat }) };
          });
          expect(got, `step ${i + 1} as ${step.identityText}:\n${step.query}`).toEqual(expected);
        }
      });
    }
  }
});
