/**
 * The app's test files share a process with the others of their shard (test/shards.ts), so a hook
 * written at a file's top level belongs to the whole shard: a `before` that fails there cancels
 * every test of every file in it, and a `beforeEach` runs before each of them. Hooks live inside a
 * `describe` (or in a helper a suite calls).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import ts from "typescript";

const HOOKS = new Set(["before", "after", "beforeEach", "afterEach"]);
const SCOPES = new Set(["describe", "suite", "it", "test"]);

/** `file:line hook` for each hook a file calls outside any suite, test or function. */
function topLevelHooks(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const calleeName = (call: ts.CallExpression): string | undefined => {
    const callee = call.expression;
    if (ts.isIdentifier(callee)) return callee.text;
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression))
      return callee.expression.text;
    return undefined;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name !== undefined && SCOPES.has(name)) return;
      if (name !== undefined && HOOKS.has(name) && ts.isIdentifier(node.expression)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${path}:${line + 1} ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const appTestFiles = (): string[] =>
  readdirSync(new URL("..", import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".test.ts") && !/^(system|unit)[\\/]/.test(path))
    .map((path) => `test/${path}`);

describe("the app's test files", () => {
  it("find a hook written at a file's top level, and none inside a suite or a helper", () => {
    const text = [
      "before(() => {});",
      'describe("s", () => { before(() => {}); it("t", () => {}); });',
      "function helper() { after(() => {}); }",
      "if (ready) { beforeEach(() => {}); }",
    ].join("\n");
    assert.deepEqual(topLevelHooks("x.test.ts", text), ["x.test.ts:1 before", "x.test.ts:4 beforeEach"]);
  });

  it("write no hook at a file's top level, where it would belong to every file of the shard", () => {
    const files = appTestFiles();
    assert.ok(files.length > 50, `found only ${files.length} files`);
    const hooks = files.flatMap((path) =>
      topLevelHooks(path, readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")),
    );
    assert.deepEqual(hooks, []);
  });
});
