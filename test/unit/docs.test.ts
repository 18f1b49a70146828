/**
 * The docs name what the code does: every error code of the catalog is in docs/errors.md, and
 * every configuration variable the loader reads is in docs/configuration.md.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { errorCatalog } from "../../src/core/errors.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe("docs", () => {
  it("lists every error code with its status", () => {
    const doc = read("docs/errors.md");
    for (const [code, spec] of Object.entries(errorCatalog)) {
      assert.match(
        doc,
        new RegExp(`\\| ${spec.status} \\| \`${code}\` \\|`),
        `${code} is missing from docs/errors.md`,
      );
    }
  });

  it("documents every environment variable the configuration reads", () => {
    const source = read("src/config.ts");
    const names = new Set([...source.matchAll(/value\("([A-Z_]+)"\)/g)].map((m) => m[1]));
    assert.ok(names.size >= 10);
    const doc = read("docs/configuration.md");
    for (const name of names)
      assert.ok(doc.includes(`\`${name}\``), `${name} is missing from docs/configuration.md`);
  });
});
