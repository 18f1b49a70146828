/**
 * The examples in examples/tools, as docs/tools/writing-a-tool.md shows them: the module tool loads
 * from its folder and answers its own examples, and the HTTP tool declaration works against the
 * test upstream (the origin in the file replaced by the one the test started).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { loadTools } from "../../src/core/tools/loader.ts";
import { runToolCall } from "../../src/core/tools/run.ts";
import { startUpstream, type TestUpstream, TICKETS_TOKEN } from "../helpers/upstream.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLE_ORIGIN = "http://127.0.0.1:8787";

describe("examples/tools", () => {
  let server: TestUpstream;
  const upstream = createHttpUpstream();
  before(async () => {
    server = await startUpstream();
  });
  after(() => server.close());

  it("loads the unit converter from its folder, and it answers its examples", async () => {
    const loaded = await loadTools({ builtIns: [], modules: "examples/tools", env: {}, cwd: ROOT, upstream });
    assert.deepEqual(
      loaded.map((tool) => tool.definition.slug),
      ["unit-converter"],
    );
    const [converter] = loaded;
    assert.ok(converter);
    const answers = await Promise.all(
      converter.definition.examples.map((example) =>
        runToolCall(converter, { ...example.input }, { requestId: "r" }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => (answer.ok ? answer.value.text : answer)),
      ["42.195 km = 26.2188 mi", "37 C = 98.6 F"],
    );
    const mismatch = await runToolCall(converter, { value: 1, from: "km", to: "kg" }, { requestId: "r" });
    assert.ok(!mismatch.ok);
    assert.equal(mismatch.httpStatus, 422);
    assert.equal(
      (mismatch.error as Error).message,
      "A kilometre measures length and a kilogram measures mass: they do not convert.",
    );
    const cold = await runToolCall(converter, { value: -500, from: "F", to: "C" }, { requestId: "r" });
    assert.ok(!cold.ok);
    assert.equal(cold.httpStatus, 422);
  });

  it("are shown whole in docs/tools/writing-a-tool.md", () => {
    const doc = readFileSync(new URL("../../docs/tools/writing-a-tool.md", import.meta.url), "utf8");
    const blocks = [...doc.matchAll(/```(ts|json)\n([\s\S]*?)```/g)].map((m) => m[2]);
    const module = readFileSync(new URL("../../examples/tools/unit-converter.ts", import.meta.url), "utf8");
    // The file less its opening comment, which the doc's prose replaces.
    assert.ok(
      blocks.includes(module.replace(/^\/\*\*[\s\S]*?\*\/\n/, "")),
      "the module tool differs from the doc's",
    );
    const declaration = readFileSync(
      new URL("../../examples/tools/http-tools.json", import.meta.url),
      "utf8",
    );
    assert.ok(blocks.includes(declaration), "the HTTP tool differs from the doc's");
  });

  it("declares an HTTP tool that opens one ticket however often a keyed call is retried", async () => {
    const file = readFileSync(new URL("../../examples/tools/http-tools.json", import.meta.url), "utf8");
    assert.ok(file.includes(EXAMPLE_ORIGIN));
    const config = JSON.parse(file.replaceAll(EXAMPLE_ORIGIN, server.origin)) as { httpTools: unknown };
    const load = (token: string) =>
      loadTools({
        builtIns: [],
        httpTools: { declarations: config.httpTools, configPath: "examples/tools/http-tools.json" },
        env: { TICKETS_TOKEN: token },
        cwd: ROOT,
        upstream,
      });
    const [createTicket] = await load(TICKETS_TOKEN);
    assert.ok(createTicket);
    assert.equal(createTicket.definition.effects, "external");
    const input = { title: "Printer on fire", priority: "high" };
    const first = await runToolCall(createTicket, input, { requestId: "r1", idempotencyKey: "retry-1" });
    const retry = await runToolCall(createTicket, input, { requestId: "r2", idempotencyKey: "retry-1" });
    assert.ok(first.ok && retry.ok);
    assert.deepEqual(first.value, {
      id: first.value.id,
      title: "Printer on fire",
      priority: "high",
      status: "open",
    });
    assert.deepEqual(retry.value, first.value);
    assert.equal(server.callsFor("retry-1"), 2);

    const [wrongToken] = await load("not-the-token");
    assert.ok(wrongToken);
    const refused = await runToolCall(wrongToken, input, { requestId: "r3" });
    assert.ok(!refused.ok);
    assert.equal(refused.httpStatus, 500, "a refused token is the operator's to fix, not the input");
    assert.match((refused.error as Error).message, /refused the tool's configured credentials with HTTP 401/);
  });

  it("serves the help desk the README starts, which wants its token and opens tickets", async () => {
    const script = fileURLToPath(new URL("../../examples/help-desk/server.ts", import.meta.url));
    const missing = spawnSync(process.execPath, [script], {
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /Set TICKETS_TOKEN/);

    const desk = spawn(process.execPath, [script], {
      env: { PATH: process.env.PATH, TICKETS_TOKEN: "demo", PORT: "0" },
    });
    try {
      const [line] = (await once(desk.stdout, "data")) as [Buffer];
      const url = /http:\/\/\S+\/tickets/.exec(line.toString())?.[0];
      assert.ok(url, line.toString());
      const open = (token: string) =>
        fetch(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "idempotency-key": "readme",
            "content-type": "application/json",
          },
          body: JSON.stringify({ title: "Printer on fire" }),
        });
      const first = await open("demo");
      assert.equal(first.status, 201);
      const ticket = await first.json();
      assert.deepEqual(ticket, {
        id: "T-1001",
        title: "Printer on fire",
        priority: "normal",
        status: "open",
      });
      assert.deepEqual(await (await open("demo")).json(), ticket);
      assert.equal((await open("wrong")).status, 401);
    } finally {
      desk.kill();
    }
  });
});
