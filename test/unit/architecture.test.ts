/**
 * The dependency direction of docs/architecture.md, checked by reading the imports: tools import
 * nothing of ours, the core's rooms are floors (each imports only the rooms below it) and import
 * no HTTP or database code, ports import only ports, adapters only ports, the HTTP, MCP and
 * console transports never import each other, only deps.ts picks adapters, and no file reaches
 * itself through its imports.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

/** Every source file below `dir`; tests (`*.test.ts`) may import anything and are not read. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
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

/** The core's rooms, lowest floor first. */
const FLOORS = ["kernel", "tools", "call", "contract", "admin", "billing", "oauth"];

/** The floor of a core file (its index in FLOORS): -1 for a file in no room. */
function floorOf(path: string): number {
  const room = /^src\/core\/([^/]+)\/[^/]+$/.exec(path)?.[1];
  return room === undefined ? -1 : FLOORS.indexOf(room);
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(ROOT, file), imports: importsOf(file) }));
const inside = (prefix: string) => files.filter((f) => f.path.startsWith(prefix));

/** The files of `src/` that import themselves through a chain of imports, one chain per circle. */
function importCircles(): string[][] {
  const graph = new Map(files.map((f) => [f.path, f.imports.filter((s) => s.startsWith("src/"))]));
  const circles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): void => {
    if (onPath.has(file)) {
      circles.push([...path.slice(path.indexOf(file)), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.delete(file);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return circles;
}

describe("architecture", () => {
  it("finds the source files and their imports", () => {
    assert.ok(inside("src/core/call/").length > 5);
    assert.ok(inside("src/tools/").length > 3);
    const invoke = files.find((f) => f.path === "src/core/call/invoke.ts");
    assert.ok(
      invoke?.imports.includes("src/core/call/idempotency.ts"),
      "reads relative imports as src paths",
    );
  });

  it("tools import nothing of ours outside src/tools", () => {
    for (const file of inside("src/tools/")) {
      for (const spec of file.imports) {
        if (spec.startsWith("src/")) assert.ok(spec.startsWith("src/tools/"), `${file.path} imports ${spec}`);
      }
    }
  });

  it("the core lives in its rooms, each room one floor", () => {
    for (const file of inside("src/core/")) assert.ok(floorOf(file.path) >= 0, `${file.path} is in no room`);
  });

  it("each room of the core imports only its own room and the rooms below it", () => {
    let across = 0;
    for (const file of inside("src/core/")) {
      for (const spec of file.imports.filter((s) => s.startsWith("src/core/"))) {
        assert.ok(
          floorOf(spec) <= floorOf(file.path),
          `${file.path} imports ${spec}, a floor above (floors, lowest first: ${FLOORS.join(", ")})`,
        );
        if (floorOf(spec) < floorOf(file.path)) across++;
      }
    }
    assert.ok(across > 20, "reads the imports from one room to another");
  });

  it("the core imports no HTTP, database or adapter code, nor Node's HTTP types", () => {
    const forbidden =
      /^(fastify|@fastify\/|pg$|ioredis$|node:sqlite$|node:http2?$|node:https$|piscina$|@modelcontextprotocol\/|src\/(http|mcp|console|adapters|cli)\/|src\/(app|deps|server|config)\.ts$)/;
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

  it("adapters implement ports and know nothing of the core, the tools or the transports", () => {
    assert.ok(inside("src/adapters/compute/").length >= 3);
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

  it("no file of src/ imports itself through a circle of imports", () => {
    assert.deepEqual(
      importCircles().map((circle) => circle.join(" -> ")),
      [],
    );
  });
});
