/**
 * The dependency direction of ARCHITECTURE.md, checked by reading the imports: tools import
 * nothing of ours, the core imports no HTTP or database code, the HTTP, MCP and console transports
 * never import each other, and only deps.ts picks adapters.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    // Test code (`*.test.ts` and a folder's `test-support.ts`) may import anything.
    const isTest = entry.name.endsWith(".test.ts") || entry.name === "test-support.ts";
    return entry.name.endsWith(".ts") && !isTest ? [path] : [];
  });
}

/** Every module a file imports: `src/...` paths for our own, the bare specifier otherwise. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g),
    ...text.matchAll(/import\("([^"]+)"\)/g),
  ].map((m) => m[1] ?? "");
  return specifiers.map((s) => (s.startsWith(".") ? relative(ROOT, resolve(dirname(file), s)) : s));
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(ROOT, file), imports: importsOf(file) }));
const inside = (prefix: string) => files.filter((f) => f.path.startsWith(prefix));

describe("architecture", () => {
  it("finds the source files", () => {
    assert.ok(inside("src/core/").length > 5);
    assert.ok(inside("src/tools/").length > 3);
  });

  it("tools import nothing of ours outside src/tools", () => {
    for (const file of inside("src/tools/")) {
      for (const spec of file.imports) {
        if (spec.startsWith("src/")) assert.ok(spec.startsWith("src/tools/"), `${file.path} imports ${spec}`);
      }
    }
  });

  it("the core imports no HTTP, database or adapter code", () => {
    const forbidden =
      /^(fastify|@fastify\/|pg$|ioredis$|node:sqlite$|@modelcontextprotocol\/|src\/(http|mcp|adapters|cli)\/|src\/(app|deps|server|config)\.ts$)/;
    for (const file of inside("src/core/")) {
      for (const spec of file.imports) assert.doesNotMatch(spec, forbidden, `${file.path} imports ${spec}`);
    }
  });

  it("ports import nothing but other ports", () => {
    for (const file of inside("src/ports/")) {
      for (const spec of file.imports) {
        if (spec.startsWith("src/")) assert.ok(spec.startsWith("src/ports/"), `${file.path} imports ${spec}`);
      }
    }
  });

  it("adapters implement ports and know nothing of the core or the transports", () => {
    for (const file of inside("src/adapters/")) {
      for (const spec of file.imports) {
        if (spec.startsWith("src/")) {
          assert.match(spec, /^src\/(ports|adapters)\//, `${file.path} imports ${spec}`);
        }
      }
    }
  });

  it("the HTTP and MCP transports never import each other", () => {
    for (const [from, to] of [
      ["src/http/", /^src\/mcp\//],
      ["src/mcp/", /^src\/http\//],
    ] as const) {
      assert.ok(inside(from).length > 0, `${from} has source files`);
      for (const file of inside(from)) {
        for (const spec of file.imports) assert.doesNotMatch(spec, to, `${file.path} imports ${spec}`);
      }
    }
  });

  it("the console calls the core and imports no other transport", () => {
    assert.ok(inside("src/console/").length >= 3);
    for (const file of inside("src/console/")) {
      for (const spec of file.imports)
        assert.doesNotMatch(spec, /^src\/(http|mcp|cli|adapters)\//, `${file.path} imports ${spec}`);
    }
  });

  it("only deps.ts picks adapters", () => {
    for (const file of files) {
      if (file.path === "src/deps.ts" || file.path.startsWith("src/adapters/")) continue;
      for (const spec of file.imports)
        assert.doesNotMatch(spec, /^src\/adapters\//, `${file.path} imports ${spec}`);
    }
  });
});
