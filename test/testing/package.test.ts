// The `surql-auth/testing` export: package.json maps it to what the build emits for src/testing/index.ts, fast-check
// is a required peer (users' tests bring their own), the README's example is this repository's running test, and no
// module below src/testing imports it (it sits at the top, like src/sdk.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  exports: Record<string, { types: string; default: string }>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: boolean }>;
  devDependencies: Record<string, string>;
};
const build = JSON.parse(readFileSync("tsconfig.build.json", "utf8")) as { include: string[] };
const base = JSON.parse(readFileSync("tsconfig.json", "utf8")) as { compilerOptions: { rootDir: string; outDir: string } };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

describe("surql-auth/testing as a package export", () => {
  it("maps to the build output of src/testing/index.ts, with its types", () => {
    const { rootDir, outDir } = base.compilerOptions;
    expect(rootDir).toBe(".");
    expect(build.include).toContain("src");
    expect(pkg.exports["./testing"]).toEqual({ types: `./${outDir}/src/testing/index.d.ts`, default: `./${outDir}/src/testing/index.js` });
    expect(statSync("src/testing/index.ts").isFile()).toBe(true);
  });

  it("needs fast-check from the user's project (a required peer) and has it for our own tests", () => {
    expect(pkg.peerDependencies["fast-check"]).toMatch(/^\^4\./);
    expect(pkg.peerDependenciesMeta["fast-check"]).toEqual({ optional: false });
    expect(pkg.devDependencies["fast-check"]).toBeDefined();
  });

  it("imports only downward: nothing else in src/ imports src/testing", () => {
    const importers = files("src").filter((f) => !f.startsWith(join("src", "testing")) && f.endsWith(".ts") && /from "[^"]*testing\//.test(readFileSync(f, "utf8")));
    expect(importers).toEqual([]);
  });

  it("the README's example is test/testing/readme-example.test.ts with the package's import path", () => {
    const example = readFileSync("test/testing/readme-example.test.ts", "utf8").replace('"../../src/testing/index.js"', '"surql-auth/testing"');
    expect(readFileSync("README.md", "utf8")).toContain("```ts\n" + example + "```");
  });
});
