/**
 * A tool's answer that passes its output schema but cannot be written as JSON (a BigInt, a cycle, a
 * `toJSON` or a getter that throws, an object nested deeper than the serializer goes, from a module
 * or from an upstream) is a failed call: 500 `processing_error`, refunded, its ledger row saying 500,
 * on every store, over HTTP and MCP, with and without an idempotency key. The answer is written
 * before the call is charged, so no such call is ever charged.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { loadOperatorTools } from "../helpers/operator-tools.ts";
import { assertProblem } from "../helpers/problem.ts";
import { storesToTest } from "../helpers/stores.ts";
import { refusingOrigin, startUpstream, type TestUpstream } from "../helpers/upstream.ts";
import { injectRpc } from "../mcp/helpers.ts";

const MODES = ["bigint", "cycle", "throwing-to-json", "throwing-getter", "deep"] as const;
type Mode = (typeof MODES)[number];

function unwritable(mode: Mode): Record<string, unknown> {
  switch (mode) {
    case "bigint":
      return { count: 10n };
    case "cycle": {
      const outputs: Record<string, unknown> = { name: "loop" };
      outputs.self = outputs;
      return outputs;
    }
    case "throwing-to-json":
      return {
        when: {
          toJSON: () => {
            throw new Error("toJSON-internal-detail");
          },
        },
      };
    case "throwing-getter":
      return Object.defineProperty({}, "value", {
        enumerable: true,
        get: () => {
          throw new Error("getter-internal-detail");
        },
      });
    case "deep": {
      const outputs: Record<string, unknown> = {};
      let inner = outputs;
      for (let i = 0; i < 5000; i++) {
        const next = {};
        inner.a = next;
        inner = next;
      }
      return outputs;
    }
  }
}

/** A module tool answering what cannot be written; asynchronously for `async: true`, as modules may. */
const unwritableTool = {
  slug: "unwritable",
  name: "Unwritable",
  description:
    "Answers outputs that pass an open output schema but cannot be written as JSON. Made for tests.",
  keywords: ["test"],
  version: "1.0.0",
  defaults: { weight: 3, maxBodyBytes: 1024 },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["mode"],
    properties: { mode: { type: "string", enum: [...MODES] }, async: { type: "boolean" } },
  },
  outputSchema: { type: "object" },
  examples: [],
  effects: "none",
  run(input: { mode: Mode; async?: boolean }) {
    const outputs = unwritable(input.mode);
    return input.async ? Promise.resolve(outputs) : outputs;
  },
} satisfies AnyToolDefinition;

/** Every unwritable answer: the module's, sync and async, and an upstream's too deep JSON. */
const CALLS: readonly { readonly slug: string; readonly input: Record<string, unknown> }[] = [
  ...MODES.flatMap((mode) => [
    { slug: "unwritable", input: { mode } },
    { slug: "unwritable", input: { mode, async: true } },
  ]),
  { slug: "upstream-deep", input: {} },
];

for (const { name, make } of storesToTest({ postgres: "system" })) {
  describe(`answers that cannot be written as JSON (${name})`, () => {
    const lifetime = untilSuiteEnds();
    let upstream: TestUpstream;
    let t: TestApp;

    before(async () => {
      upstream = await startUpstream();
      const loadedTools = (await loadOperatorTools(upstream.origin, await refusingOrigin())).filter(
        (tool) => tool.definition.slug === "upstream-deep",
      );
      t = await createTestApp({ tools: [unwritableTool], loadedTools, store: await make() }, lifetime);
    });
    after(() => upstream.close());

    /** What the call answered, as a problem document (HTTP's body, MCP's `toolrun/problem`). */
    async function call(
      transport: "HTTP" | "MCP",
      key: string,
      slug: string,
      input: Record<string, unknown>,
      idempotencyKey: string | undefined,
    ): Promise<{ status: number; problem: Record<string, unknown> }> {
      if (transport === "HTTP") {
        const res = await t.app.inject({
          method: "POST",
          url: `/v1/tool/${slug}`,
          headers: json({ ...bearer(key), ...(idempotencyKey && { "idempotency-key": idempotencyKey }) }),
          payload: JSON.stringify(input),
        });
        return { status: res.statusCode, problem: assertProblem(res, 500, "processing_error") };
      }
      const res = await injectRpc(t, key, {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: slug,
          arguments: input,
          ...(idempotencyKey && { _meta: { "toolrun/idempotency-key": idempotencyKey } }),
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      const { result } = res.json();
      assert.equal(result?.isError, true, res.body);
      assert.equal(result.structuredContent, undefined);
      const problem = result._meta["toolrun/problem"];
      return { status: problem.status, problem };
    }

    for (const transport of ["HTTP", "MCP"] as const)
      for (const keyed of [false, true])
        it(`${transport}, ${keyed ? "with" : "without"} an idempotency key: 500 processing_error, refunded, recorded as 500`, async () => {
          const key = await t.key("free");
          for (const [i, { slug, input }] of CALLS.entries()) {
            const answer = await call(transport, key, slug, input, keyed ? `unwritable-${i}` : undefined);
            const what = `${slug} ${JSON.stringify(input)}`;
            assert.equal(answer.status, 500, `${what}: ${JSON.stringify(answer.problem)}`);
            assert.equal(answer.problem.code, "processing_error", what);
            assert.equal(answer.problem.credits_used, 0, what);
            assert.match(String(answer.problem.detail), /cannot be written as JSON.*refunded/, what);
            assert.doesNotMatch(JSON.stringify(answer.problem), /internal-detail/, what);
          }
          const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
          assert.equal(credits.json().credits_used, 0);
          const usage = (
            await t.app.inject({ method: "GET", url: "/v1/me/usage?limit=100", headers: bearer(key) })
          ).json();
          assert.equal(usage.credits_used, 0);
          assert.deepEqual(
            usage.recent.map((c: Record<string, unknown>) => [c.status, c.http_status, c.credits]),
            CALLS.map(() => ["refunded", 500, 0]),
          );
        });
  });
}
