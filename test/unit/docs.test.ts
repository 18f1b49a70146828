/**
 * The docs name what the code does: every error code of the catalog is in docs/errors.md, the
 * variable table of docs/configuration.md is the one config.ts's declarations render, the tool table there
 * (the one place the docs give each tool's weight, body limit and cost) is the registry's; the
 * index names every document, and no source comment sends a reader outside the repository.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { sep } from "node:path";
import { describe, it } from "node:test";
import { unknownVariableWarnings } from "../../src/config.ts";
import { regenerate, variableTable } from "../../src/config-docs.ts";
import { errorCatalog } from "../../src/core/kernel/errors.ts";
import { DEFAULT_PLANS } from "../../src/core/kernel/settings.ts";
import { tools } from "../../src/tools/index.ts";

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

  it("gives the variable table the declarations of config.ts render, so a changed declaration fails until regenerated", () => {
    const doc = read("docs/configuration.md");
    assert.equal(doc, regenerate(doc), "run `npm run docs:config` and commit docs/configuration.md");
  });

  it("replaces a stale variable table whole, and refuses a document without its markers", () => {
    const stale =
      "intro\n<!-- generated:variables:start -->\n| `PORT` | `80` |\n<!-- generated:variables:end -->\nrest\n";
    assert.equal(
      regenerate(stale),
      `intro\n<!-- generated:variables:start -->\n${variableTable()}\n<!-- generated:variables:end -->\nrest\n`,
    );
    assert.match(variableTable(), /^\| `PORT` \| `8080` \| an integer from 0 to 65535 \| /m);
    assert.throws(() => regenerate("no table here"), /lacks the <!-- generated:variables:start -->/);
  });

  it("warns about none of the variables it documents, so an operator who sets one is not told it is a typo", () => {
    const doc = read("docs/configuration.md");
    const documented = Object.fromEntries(
      [...doc.matchAll(/^\| `((?:TOOLRUN_|HOST|PORT|LOG_LEVEL)[A-Z_]*)` \|/gm)].map((m) => [m[1], "1"]),
    );
    assert.ok(Object.keys(documented).length >= 15);
    assert.deepEqual(unknownVariableWarnings(documented), []);
  });

  it("gives every tool's weight, body limit and cost per plan in one table, and no other tool", () => {
    const doc = read("docs/configuration.md");
    const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| (\d+) \| ([^|]+) \| (\d+) \| (\d+) \|$/gm)];
    const plans = [DEFAULT_PLANS.free, DEFAULT_PLANS.builder];
    const expected = tools.map((tool) => [
      tool.slug,
      String(tool.defaults.weight),
      bytes(tool.defaults.maxBodyBytes),
      ...plans.map((plan) => String(Math.max(tool.defaults.weight, plan?.minCredits ?? 0))),
    ]);
    assert.deepEqual(
      rows.map((row) => row.slice(1).map((cell) => cell?.trim())),
      expected,
    );
  });

  it("indexes every document in docs/README.md", () => {
    const index = read("docs/README.md");
    const documents = readdirSync(new URL("../../docs", import.meta.url), {
      recursive: true,
      encoding: "utf8",
    })
      .filter((path) => /\.(md|json)$/.test(path) && path !== "README.md")
      .map((path) => path.split(sep).join("/"));
    assert.ok(documents.length >= 10);
    for (const path of documents)
      assert.ok(index.includes(`](${path})`), `${path} is missing from docs/README.md`);
  });

  it("cites nothing outside the repository in source comments", () => {
    const sources = readdirSync(new URL("../../src", import.meta.url), {
      recursive: true,
      encoding: "utf8",
    }).filter((path) => path.endsWith(".ts"));
    const citing = sources.filter((path) => /decisions\.md|\bissue #?\d+/i.test(read(`src/${path}`)));
    assert.deepEqual(citing, []);
  });
});

/** `16 KiB`, `1 MiB`: how the docs write a body limit. */
function bytes(n: number): string {
  return n % 1_048_576 === 0 ? `${n / 1_048_576} MiB` : `${n / 1024} KiB`;
}
