import { describe, it } from "vitest";
import { assertPermissions } from "../../src/testing/index.js";

describe("blog permissions", () => {
  it("no record user reads or changes another's data", async () => {
    await assertPermissions("test/testing/schemas/blog.surql", {
      public: { post: "published = true", profile: { fields: ["owner", "bio"] } },
      numRuns: 10,
    });
  }, 30_000);
});
