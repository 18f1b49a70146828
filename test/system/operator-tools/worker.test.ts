/**
 * Which tools the compute offload's worker runs: computing tools (`effects: "none"`), the built-in
 * ones and an operator's modules, which the worker imports again from their files with their
 * secrets. A large call of one runs there, to the same answer as a small one here; a tool with
 * effects outside never goes, whatever its body.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createComputePool } from "../../../src/adapters/compute/pool.ts";
import { computeRunner, runnerToolsOf } from "../../../src/core/call/compute-runner.ts";
import { loadTools } from "../../../src/core/tools/loader.ts";
import { tools } from "../../../src/tools/index.ts";
import { bearer, createTestApp, json } from "../../helpers/app.ts";
import { OPERATOR_TOOLS_FOLDER } from "../../helpers/operator-tools.ts";

const WORKER_TOOLS = fileURLToPath(new URL("../../fixtures/worker-tools/", import.meta.url));

describe("an operator's computing tool on the worker thread", () => {
  it("runs a large call on the worker, a small one here, to the same answer, with its secrets", async (t) => {
    const loaded = await loadTools({
      builtIns: tools,
      modules: WORKER_TOOLS,
      secrets: { "word-count": { salt: "pepper" } },
      env: {},
      cwd: process.cwd(),
    });
    const pool = createComputePool({ runner: computeRunner(runnerToolsOf(loaded)) });
    t.after(() => pool.close());
    const app = await createTestApp({ tools: [], loadedTools: loaded, offload: pool }, t);
    const key = await app.key("builder");
    const count = async (text: string) => {
      const answer = await app.app.inject({
        method: "POST",
        url: "/v1/tool/word-count",
        headers: json(bearer(key)),
        payload: JSON.stringify({ text }),
      });
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json().outputs;
    };
    const large = "lorem ipsum ".repeat(20_000);
    assert.ok(large.length >= pool.minBytes);
    assert.deepEqual(await count(large), { words: 40_000, mainThread: false, salt: "pepper" });
    assert.deepEqual(await count("three small words"), { words: 3, mainThread: true, salt: "pepper" });
  });

  it("never sends a tool with effects outside to the worker", async () => {
    const loaded = await loadTools({
      builtIns: [],
      modules: OPERATOR_TOOLS_FOLDER,
      secrets: { "remember-note": { origin: "http://127.0.0.1:9" } },
      env: {},
      cwd: process.cwd(),
    });
    const runner = runnerToolsOf(loaded);
    assert.deepEqual(
      runner.modules?.map((module) => module.path.split("/").at(-1)),
      ["misbehaving.ts", "stray-failure.ts"],
      "the computing modules only",
    );
  });
});
