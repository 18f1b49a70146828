/**
 * Request logging: one line per request, written when it ends, carrying the request's method, path
 * and id with the status and the time taken, and what the request did: the key's id (never the
 * key), the tool, the credits charged and the problem code. A key sent anywhere never reaches it.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
import { createMetrics } from "../../src/http/metrics.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { connect, startMcpApp } from "../mcp/helpers.ts";

describe("request log", () => {
  it("writes one line per request, when it ends", async (context) => {
    const log = collectLog();
    const { lines } = log;
    const t = await createTestApp(log.options, context);
    const key = await t.key("free");
    const ok = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });
    assert.equal(ok.statusCode, 200);
    const refused = await t.app.inject({ method: "GET", url: "/v1/me/credits" });
    assert.equal(refused.statusCode, 401);

    const requestLines = lines.filter((l) => "reqId" in l);
    assert.deepEqual(
      requestLines.map((l) => l.msg),
      ["request completed", "request completed"],
    );
    const [first, second] = requestLines;
    assert.equal(first?.reqId, ok.headers["x-request-id"]);
    assert.deepEqual(first?.req, {
      method: "POST",
      url: "/v1/tool/echo",
      host: "localhost:80",
      remoteAddress: "127.0.0.1",
    });
    assert.deepEqual(first?.res, { statusCode: 200 });
    assert.equal(typeof first?.responseTime, "number");
    assert.deepEqual(second?.res, { statusCode: 401 });
  });
});

describe("request log fields", () => {
  it("names the key's id, the tool, the credits charged, the status and the problem code", async (context) => {
    const log = collectLog();
    const t = await createTestApp(
      {
        ...log.options,
        plans: { free: { id: "free", label: "Free", rpm: 100, monthlyCredits: 4, minCredits: 2 } },
      },
      context,
    );
    try {
      const key = await t.key("free");
      const keyId = (await t.store.listKeys())[0]?.id;
      const post = (payload: unknown) =>
        t.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: JSON.stringify(payload),
        });
      const refunded = await post({ value: 1, mode: "unprocessable" });
      const charged = await post({ value: 1 });
      const refused = await post({ value: 1 });
      const unknown = await t.app.inject({ method: "GET", url: "/nowhere" });
      assert.deepEqual(
        [refunded, charged, refused, unknown].map((r) => r.statusCode),
        [422, 200, 402, 404],
      );
      const pick = (l: Record<string, unknown>) => ({
        reqId: l.reqId,
        keyId: l.keyId,
        tool: l.tool,
        creditsCharged: l.creditsCharged,
        status: (l.res as { statusCode: number }).statusCode,
        code: l.code,
      });
      assert.deepEqual(log.requestLines().map(pick), [
        {
          reqId: refunded.headers["x-request-id"],
          keyId,
          tool: "echo",
          creditsCharged: undefined,
          status: 422,
          code: "unprocessable_input",
        },
        {
          reqId: charged.headers["x-request-id"],
          keyId,
          tool: "echo",
          creditsCharged: 3,
          status: 200,
          code: undefined,
        },
        {
          reqId: refused.headers["x-request-id"],
          keyId,
          tool: "echo",
          creditsCharged: undefined,
          status: 402,
          code: "insufficient_credits",
        },
        {
          reqId: unknown.headers["x-request-id"],
          keyId: undefined,
          tool: undefined,
          creditsCharged: undefined,
          status: 404,
          code: "not_found",
        },
      ]);
    } finally {
      await t.close();
    }
  });

  it("says a replayed answer charged 0 credits, the first call its price or nothing when refunded", async (context) => {
    const log = collectLog();
    const t = await createTestApp(log.options, context);
    const key = await t.key("free");
    const send = (idempotencyKey: string, payload: unknown) =>
      t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "idempotency-key": idempotencyKey }),
        payload: JSON.stringify(payload),
      });
    const statuses = [
      (await send("ok-1", { value: 1 })).statusCode,
      (await send("ok-1", { value: 1 })).statusCode,
      (await send("no-answer-1", { value: 1, mode: "unprocessable" })).statusCode,
      (await send("no-answer-1", { value: 1, mode: "unprocessable" })).statusCode,
    ];
    assert.deepEqual(statuses, [200, 200, 422, 422]);
    assert.deepEqual(
      log.requestLines().map((l) => [l.tool, l.creditsCharged, l.code]),
      [
        ["echo", 3, undefined],
        ["echo", 0, undefined],
        ["echo", undefined, "unprocessable_input"],
        ["echo", 0, "unprocessable_input"],
      ],
    );
  });

  it("writes the line of a charged call whose client hung up before its answer, and counts it, as status 499", async (context) => {
    const log = collectLog();
    const metrics = createMetrics();
    const t = await createTestApp(
      { appOptions: { ...log.options.appOptions, metrics: { metrics, token: null } } },
      context,
    );
    const key = await t.key("free");
    // The ledger holds the call until the client has gone.
    const store = t.store as { -readonly [K in keyof typeof t.store]: (typeof t.store)[K] };
    const runCall = store.runCall.bind(store);
    const held = Promise.withResolvers<void>();
    const reached = Promise.withResolvers<void>();
    store.runCall = async (...args) => {
      reached.resolve();
      await held.promise;
      return runCall(...args);
    };
    const url = await t.app.listen({ host: "127.0.0.1", port: 0 });
    const call = request(`${url}/v1/tool/echo`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
    call.on("error", () => {});
    call.end('{"value":1}');
    await reached.promise;
    call.destroy();
    await setTimeout(50);
    held.resolve();
    await setTimeout(100);
    const lines = log.requestLines();
    assert.deepEqual(
      lines.map((l) => [
        l.msg,
        (l.res as { statusCode?: number } | undefined)?.statusCode,
        l.creditsCharged,
        l.tool,
      ]),
      [["client closed the connection before the answer", 499, 3, "echo"]],
    );
    assert.equal(lines[0]?.answerStatus, 200);
    // It was charged: the line is how an operator reading the log learns of it.
    const usage = await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
    assert.equal(usage.json().credits_used, 3);
    assert.match(
      await metrics.registry.getSingleMetricAsString("toolrun_http_requests_total"),
      /toolrun_http_requests_total\{[^}]*status="499"[^}]*\} 1/,
    );
  });

  it("logs an MCP tool call with its key id, tool, credits and code", async (context) => {
    const log = collectLog();
    const t = await startMcpApp(log.options, context);
    const key = await t.key("free");
    const keyId = (await t.store.listKeys())[0]?.id;
    const client = await connect(t.mcp, key, "2025-11-25");
    try {
      await client.callTool({ name: "echo", arguments: { value: 2 } });
      await client.callTool({ name: "echo", arguments: { value: 2, mode: "crash" } });
    } finally {
      await client.close();
      await t.close();
    }
    const calls = log.requestLines().filter((l) => l.tool !== undefined);
    assert.deepEqual(
      calls.map((l) => [l.keyId, l.tool, l.creditsCharged, l.code]),
      [
        [keyId, "echo", 3, undefined],
        [keyId, "echo", undefined, "processing_error"],
      ],
    );
  });

  it("never writes a key, wherever the client put it", async (context) => {
    const log = collectLog();
    const t = await createTestApp(log.options, context);
    try {
      const key = await t.key("free");
      const responses = [
        await t.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: { value: 1 },
        }),
        await t.app.inject({ method: "GET", url: `/v1/me/credits?api_key=${key}` }),
        await t.app.inject({ method: "GET", url: `/v1/tool/${key}`, headers: bearer(key) }),
        await t.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: JSON.stringify({ value: 1, note: key }),
        }),
        await t.app.inject({
          method: "GET",
          url: "/v1/me/credits",
          headers: { authorization: `Bearer ${key}x` },
        }),
      ];
      assert.deepEqual(
        responses.map((r) => r.statusCode),
        [200, 401, 404, 200, 401],
      );
      assert.equal(log.requestLines().length, 5);
      const written = JSON.stringify(log.lines);
      assert.ok(!written.includes(key.slice(8)), written);
      const urls = log.requestLines().map((l) => (l.req as { url: string }).url);
      assert.deepEqual(urls, [
        "/v1/tool/echo",
        "/v1/me/credits?…",
        "/v1/tool/[redacted]",
        "/v1/tool/echo",
        "/v1/me/credits",
      ]);
    } finally {
      await t.close();
    }
  });
});
