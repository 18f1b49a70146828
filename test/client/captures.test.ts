/**
 * The client's capture methods (clients/typescript, as built) against a started server: create a
 * capture, read what its address caught, inspect it with the inspector, delete it.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createToolrunClient, ToolrunError } from "@toolrun/client";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

describe("TypeScript client: captures", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let base: string;

  before(async () => {
    t = await createTestApp({ tools }, suite);
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("creates, lists, reads, inspects and deletes a capture", async () => {
    const api = createToolrunClient({ baseUrl: base, apiKey: await t.key("builder") });
    const created = await api.createCapture();
    const hook = `${base}${new URL(created.url).pathname}`;
    const sent = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "ping" },
      body: '{"zen":"Keep it logically awesome."}',
    });
    assert.deepEqual(await sent.json(), { received: true });

    const listed = await api.listCaptures();
    assert.deepEqual(
      listed.captures.map((c) => [c.id, c.request_count]),
      [[created.id, 1]],
    );
    const page = await api.getCapturedRequests(created.id, { limit: 10 });
    const [request] = page.requests;
    assert.ok(request);
    const inspected = await api.callTool("webhook-payload-inspector", { payload: request.raw });
    const provider = inspected.outputs.overview.find((row) => row.property === "Provider");
    assert.equal(provider?.value, "GitHub");

    assert.deepEqual(await api.deleteCapture(created.id), { id: created.id, deleted: true });
    await assert.rejects(
      api.getCapturedRequests(created.id),
      (error: unknown) => error instanceof ToolrunError && error.code === "capture_not_found",
    );
  });
});
