/**
 * Every JSON-RPC message POSTed to /mcp takes one slot of the key's per-minute window (interface
 * 8.1.3), shared with the HTTP API: initialize, notifications, tools/list, free reads and tool runs
 * alike, and each message of a batch. Over the limit the POST answers HTTP 429 like HTTP does.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { DEFAULT_PLANS } from "../../src/core/kernel/settings.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import {
  connect,
  initializeMessage,
  type ListeningApp,
  postRpc,
  type RpcResponse,
  startMcpApp,
} from "./helpers.ts";

const LIMIT = 6;

function remaining(res: RpcResponse): number {
  assert.equal(res.headers.get("ratelimit-policy"), `"minute";q=${LIMIT};w=60`);
  const match = /^"minute";r=(\d+);t=(\d+)$/.exec(String(res.headers.get("ratelimit")));
  assert.ok(match, `RateLimit header: ${res.headers.get("ratelimit")}`);
  return Number(match[1]);
}

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("MCP rate limits", () => {
  let t: ListeningApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startMcpApp(
      {
        at: "2026-11-15T12:00:15.400Z",
        plans: {
          ...DEFAULT_PLANS,
          free: { id: "free", label: "Free member", rpm: LIMIT, monthlyCredits: 1000, minCredits: 2 },
        },
      },
      suite,
    );
  });

  it("counts initialize, initialized, tools/list and tool calls, then answers 429 with Retry-After", async () => {
    const key = await t.key("free");
    const client = await connect(t.mcp, key, "2025-11-25"); // initialize + notifications/initialized: 2
    try {
      await client.listTools(); // 3
      await client.callTool({ name: "get_credits", arguments: {} }); // 4
      await client.callTool({ name: "echo", arguments: { value: 1 } }); // 5
      const http = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) }); // 6
      assert.equal(http.headers.ratelimit, `"minute";r=0;t=45`);
      await assert.rejects(client.callTool({ name: "echo", arguments: { value: 1 } }), /429|rate/i);
    } finally {
      await client.close();
    }
    const limited = await postRpc(t.mcp, ping(1), { authorization: `Bearer ${key}` });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("content-type"), "application/problem+json; charset=utf-8");
    const body = limited.body as Record<string, unknown>;
    assert.equal(body.code, "rate_limited");
    assert.equal(body.retry_after, 45);
    assert.equal(limited.headers.get("retry-after"), "45");
    assert.equal(remaining(limited), 0);
    // The refused echo cost nothing: only the one that ran is on the ledger.
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.statusCode, 429);
    t.clock.advance(45_000);
    const fresh = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(fresh.json().credits_used, 3);
    t.clock.set("2026-11-15T12:00:15.400Z");
  });

  it("takes one slot per message of a batch, and refuses a batch that does not fit", async () => {
    t.clock.set("2026-11-15T12:10:15.400Z");
    const key = await t.key("free");
    const auth = { authorization: `Bearer ${key}` };
    const init = await postRpc(t.mcp, initializeMessage(1, "2025-03-26"), auth);
    assert.equal(init.status, 200);
    assert.equal(remaining(init), LIMIT - 1);
    const batch = await postRpc(t.mcp, [ping(2), ping(3), ping(4)], {
      ...auth,
      "mcp-protocol-version": "2025-03-26",
    });
    assert.equal(batch.status, 200);
    assert.deepEqual(
      (batch.body as { id: number }[]).map((response) => response.id),
      [2, 3, 4],
    );
    assert.equal(remaining(batch), LIMIT - 4);
    const tooBig = await postRpc(t.mcp, [ping(5), ping(6), ping(7)], {
      ...auth,
      "mcp-protocol-version": "2025-03-26",
    });
    assert.equal(tooBig.status, 429);
    assert.equal((tooBig.body as { code: string }).code, "rate_limited");
    assert.match(String((tooBig.body as { detail: string }).detail), /batch of 3 messages.*2 are left/);
    // Nothing of the refused batch ran, so it took no slot: the two left are still there.
    assert.equal(remaining(tooBig), 2);
    const next = await postRpc(t.mcp, ping(8), auth);
    assert.equal(next.status, 200);
    assert.equal(remaining(next), 1);
  });

  it("takes a batch's slots in one step of the limiter, so a batch waits on its backend as long as one request", async () => {
    t.clock.set("2026-11-15T12:40:15.400Z");
    const key = await t.key("free");
    const record = await t.recordOf(key);
    const hits: number[] = [];
    const limiter = t.deps.limiter;
    const hit = limiter.hit.bind(limiter);
    limiter.hit = (id, ...rest) => {
      if (id === record.accountId) hits.push(1);
      return hit(id, ...rest);
    };
    try {
      const batch = await postRpc(t.mcp, [ping(1), ping(2), ping(3), ping(4)], {
        authorization: `Bearer ${key}`,
        "mcp-protocol-version": "2025-03-26",
      });
      assert.equal(batch.status, 200);
      assert.equal(remaining(batch), LIMIT - 4);
      assert.deepEqual(hits, [1]);
    } finally {
      limiter.hit = hit;
    }
  });

  it("puts the RateLimit headers on every keyed answer: results, 202 notifications, JSON-RPC errors", async () => {
    t.clock.set("2026-11-15T12:20:15.400Z");
    const key = await t.key("free");
    const auth = { authorization: `Bearer ${key}` };
    const answers = [
      await postRpc(t.mcp, ping(1), auth),
      await postRpc(t.mcp, { jsonrpc: "2.0", method: "notifications/initialized" }, auth),
      await postRpc(t.mcp, { jsonrpc: "2.0", id: 2, method: "no/such/method" }, auth),
      await postRpc(t.mcp, "{not json", auth),
    ];
    assert.deepEqual(
      answers.map((res) => res.status),
      [200, 202, 200, 400],
    );
    assert.deepEqual(
      answers.map((res) => remaining(res)),
      [5, 4, 3, 2],
    );
    const [, , unknownMethod] = answers;
    assert.ok(unknownMethod);
    assert.equal((unknownMethod.body as { error: { code: number } }).error.code, -32601);
  });

  it("counts the 2026-07-28 server/discover and each request after it", async () => {
    t.clock.set("2026-11-15T12:30:15.400Z");
    const key = await t.key("free");
    const client = await connect(t.mcp, key, "2026-07-28");
    try {
      await client.listTools();
      await client.callTool({ name: "get_usage", arguments: {} });
    } finally {
      await client.close();
    }
    const next = await postRpc(t.mcp, ping(1), { authorization: `Bearer ${key}` });
    assert.equal(remaining(next), LIMIT - 4);
  });
});
