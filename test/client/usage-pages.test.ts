/**
 * `usagePages` (clients/typescript, as built) against a started server: it follows `next_cursor`
 * through every page of the month's calls, newest first, and asks for no page the caller does not
 * take.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createToolrunClient, type ToolrunClient, type UsagePage } from "@toolrun/client";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";

describe("TypeScript client: usagePages", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let base: string;
  const usageRequests: string[] = [];

  const client = (apiKey: string): ToolrunClient =>
    createToolrunClient({
      baseUrl: base,
      apiKey,
      fetch: (request) => {
        if (request.url.includes("/v1/me/usage")) usageRequests.push(new URL(request.url).search);
        return fetch(request);
      },
    });

  before(async () => {
    t = await createTestApp({ tools: [...tools, ...fixtureTools] }, suite);
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  async function fiveCalls(api: ToolrunClient): Promise<string[]> {
    const ids: string[] = [];
    for (let value = 1; value <= 5; value++) {
      const { request_id } = await api.callTool("echo", { value });
      assert.ok(request_id);
      ids.push(request_id);
      t.clock.advance(1000);
    }
    return ids;
  }

  it("yields every page until next_cursor is null, the calls newest first, each once", async () => {
    const api = client(await t.key("free"));
    const ids = await fiveCalls(api);
    usageRequests.length = 0;
    const pages: UsagePage[] = [];
    for await (const page of api.usagePages({ limit: 2 })) pages.push(page);

    assert.deepEqual(
      pages.map((page) => page.recent.length),
      [2, 2, 1],
    );
    assert.deepEqual(
      pages.flatMap((page) => page.recent.map((call) => call.request_id)),
      [...ids].reverse(),
    );
    assert.equal(pages.at(-1)?.next_cursor, null);
    for (const page of pages) assert.equal(page.calls, 5, "every page carries the month's totals");
    assert.equal(usageRequests.length, 3);
    assert.equal(usageRequests[0], "?limit=2");
    assert.equal(usageRequests[1], `?limit=2&cursor=${pages[0]?.next_cursor}`);
  });

  it("yields one page when the month fits in it, and asks for no page the loop does not take", async () => {
    const api = client(await t.key("free"));
    await fiveCalls(api);
    usageRequests.length = 0;
    const all = [];
    for await (const page of api.usagePages()) all.push(page);
    assert.equal(all.length, 1);
    assert.equal(all[0]?.recent.length, 5);

    usageRequests.length = 0;
    for await (const page of api.usagePages({ limit: 1 })) {
      assert.equal(page.recent.length, 1);
      break;
    }
    assert.equal(usageRequests.length, 1);
  });
});
