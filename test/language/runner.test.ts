// test/language: runs every behaviour file under test/language/cases against a fresh Datastore per file and compat,
// on each storage backend (memory, file:, and PostgreSQL when installed).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { toJson } from "../../src/value/index.js";
import { expectationsFor, parseLanguageFile, systemUserDefinition, type LanguageFile } from "./format.js";
import { sessionFor } from "./sessions.js";
import { fileStorage, memoryStorage, postgresStorage, type StorageFactory } from "./storages.js";

const DIR = join(import.meta.dirname, "cases");

const files = readdirSync(DIR).filter((f) => f.endsWith(".surql")).sort();
const specs: [string, LanguageFile][] = files.map((f) => [f, parseLanguageFile(readFileSync(join(DIR, f), "utf8"))]);

/** Plays one behaviour file's steps on `ds` and checks each answer against the recorded one. */
async function playFile(ds: Datastore, spec: LanguageFile, compat: 1 | 2): Promise<void> {
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
}

/** Every file in both compats on fresh stores from `storage`. */
function languageSuite(storage: StorageFactory, title: string): void {
  describe.skipIf(storage.skip !== undefined)(storage.skip ? `${title} (skipped: ${storage.skip})` : title, () => {
    if (storage.setup) beforeAll(() => storage.setup!(), 60_000);
    if (storage.teardown) afterAll(() => storage.teardown!(), 60_000);
    for (const [file, spec] of specs) {
      for (const compat of spec.compat) {
        it(`${file} (compat ${compat})`, async () => {
          const { store, dispose } = await storage.open();
          try {
            await playFile(new Datastore({ compat, allowGuests: true, storage: store }), spec, compat);
          } finally {
            await dispose();
          }
        });
      }
    }
  });
}

languageSuite(memoryStorage, "language files");
languageSuite(fileStorage, "language files on file:");
languageSuite(postgresStorage(), "language files on postgres://");
