import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { before, describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import type { Store } from "../../src/ports/store.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";

describe("POST /v1/tool/{slug}: every error a client can meet", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let key: string;
  const post = (payload: unknown, slug = "echo", k = key) =>
    t.app.inject({
      method: "POST",
      url: `/v1/tool/${slug}`,
      headers: json(bearer(k)),
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  const remaining = async (k = key) =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(k) })).json()
      .credits_remaining;

  before(async () => {
    t = await createTestApp({ toolSettings: { "heavy-text": { freeTierMonthlyCalls: 2 } } }, suite);
    key = await t.key("free");
  });

  it("400 for a body that is not JSON, without fields", async () => {
    const body = assertProblem(await post("{not json"), 400, "validation_error");
    assert.equal(body.fields, undefined);
    assert.match(String(body.detail), /not valid JSON/);
    assertProblem(await post(""), 400, "validation_error");
  });

  it("400 for JSON that is not an object, with fields as one string", async () => {
    for (const payload of ["[1,2]", "42", "null", '"text"']) {
      const body = assertProblem(await post(payload), 400, "validation_error");
      assert.equal(body.fields, "the request body must be a JSON object");
    }
  });

  it("400 naming every bad field", async () => {
    assert.deepEqual(assertProblem(await post({}), 400, "validation_error").fields, { value: "is required" });
    assert.deepEqual(assertProblem(await post({ value: 101 }), 400, "validation_error").fields, {
      value: "must be at most 100",
    });
    assert.deepEqual(assertProblem(await post({ value: "-1" }), 400, "validation_error").fields, {
      value: "must be at least 0",
    });
    assert.deepEqual(assertProblem(await post({ value: "ten" }), 400, "validation_error").fields, {
      value: "must be a number or a numeric string",
    });
    assert.deepEqual(assertProblem(await post({ value: "1e999" }), 400, "validation_error").fields, {
      value: "must be a finite number",
    });
    assert.deepEqual(assertProblem(await post({ value: "" }), 400, "validation_error").fields, {
      value: "must be a number or a numeric string",
    });
    assert.deepEqual(assertProblem(await post({ value: true }), 400, "validation_error").fields, {
      value: "must be a number or a numeric string",
    });
    assert.deepEqual(
      assertProblem(await post({ value: 1, mode: "loud", extra: 1, note: 5 }), 400, "validation_error")
        .fields,
      {
        mode: "must be one of: ok, unprocessable, crash, slow",
        extra: "is not a known field",
        note: "must be a string",
      },
    );
    assert.equal(await remaining(), 1000);
  });

  it("402 insufficient_credits, charging nothing", async () => {
    const poor = await t.key("free", 4);
    assert.equal((await post({ value: 1 }, "echo", poor)).statusCode, 200);
    const body = assertProblem(await post({ value: 1 }, "echo", poor), 402, "insufficient_credits");
    assert.equal(body.credits_used, 0);
    assert.equal(body.credits_remaining, 1);
    assert.equal(await remaining(poor), 1);
  });

  it("402 vendor_api_tier_limit_exceeded past the free plan's monthly calls of a tool", async () => {
    const free = await t.key("free");
    assert.equal((await post({ text: "a" }, "heavy-text", free)).statusCode, 200);
    assert.equal((await post({ text: "b" }, "heavy-text", free)).statusCode, 200);
    const body = assertProblem(
      await post({ text: "c" }, "heavy-text", free),
      402,
      "vendor_api_tier_limit_exceeded",
    );
    assert.deepEqual([body.credits_used, body.credits_remaining], [0, 990]);
    const builder = await t.key("builder");
    for (let i = 0; i < 3; i++)
      assert.equal((await post({ text: "x" }, "heavy-text", builder)).statusCode, 200);
  });

  it("403 tool_not_allowed and 503 tool_disabled from the operator's switches", async () => {
    await t.store.setSwitch("echo", { api: false });
    assertProblem(await post({ value: 1 }), 403, "tool_not_allowed");
    await t.store.setSwitch("echo", { enabled: false });
    assertProblem(await post({ value: 1 }), 503, "tool_disabled");
    await t.store.setSwitch("echo", { enabled: true, api: true });
    assert.equal((await post({ value: 1 })).statusCode, 200);
  });

  it("404 tool_not_found for an unknown slug", async () => {
    assertProblem(await post({ value: 1 }, "no-such-tool"), 404, "tool_not_found");
    assertProblem(
      await t.app.inject({ method: "GET", url: "/v1/tool/no-such-tool", headers: bearer(key) }),
      404,
      "tool_not_found",
    );
  });

  it("413 payload_too_large past the tool's limit and past every tool's limit", async () => {
    const before = await remaining();
    const body = assertProblem(await post({ value: 1, note: "x".repeat(300) }), 413, "payload_too_large");
    assert.match(String(body.detail), /at most 256 bytes/);
    assertProblem(await post({ text: "x".repeat(10_000) }, "heavy-text"), 413, "payload_too_large");
    assert.equal(await remaining(), before);
  });

  it("422 unprocessable_input, refunded", async () => {
    const before = await remaining();
    const body = assertProblem(await post({ value: 1, mode: "unprocessable" }), 422, "unprocessable_input");
    assert.equal(body.detail, "Echo has no answer in this mode.");
    assert.equal(body.credits_used, 0);
    assert.equal(body.credits_remaining, before);
    assert.equal(await remaining(), before);
  });

  it("500 processing_error, refunded, hiding the internals", async () => {
    const before = await remaining();
    const res = await post({ value: 1, mode: "crash" });
    const body = assertProblem(res, 500, "processing_error");
    assert.equal(body.credits_used, 0);
    assert.equal(body.credits_remaining, before);
    assert.doesNotMatch(res.body, /secret internal detail/);
    assert.equal(await remaining(), before);
  });

  it("422 and 500 leave out credits_remaining when metering is off", async (context) => {
    const off = await createTestApp({ metering: false }, context);
    const k = await off.key();
    const res = await off.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(k)),
      payload: { value: 1, mode: "crash" },
    });
    const body = assertProblem(res, 500, "processing_error");
    assert.equal(body.credits_used, 0);
    assert.equal("credits_remaining" in body, false);
  });
});

describe("errors outside the tool pipeline", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let key: string;
  before(async () => {
    t = await createTestApp({}, suite);
    key = await t.key("free");
  });

  it("404 not_found for unknown routes and 405 method_not_allowed with Allow", async () => {
    assertProblem(await t.app.inject({ method: "GET", url: "/v2/whatever" }), 404, "not_found");
    const res = await t.app.inject({ method: "DELETE", url: "/v1/tool/echo", headers: bearer(key) });
    assertProblem(res, 405, "method_not_allowed");
    assert.equal(res.headers.allow, "GET, HEAD, POST");
    const list = await t.app.inject({ method: "POST", url: "/v1/tools/list", headers: bearer(key) });
    assertProblem(list, 405, "method_not_allowed");
    assert.equal(list.headers.allow, "GET, HEAD");
  });

  it("serves a page for every problem type", async () => {
    for (const code of [
      "validation_error",
      "rate_limited",
      "tool_disabled",
      "not_found",
      "backend_unavailable",
    ]) {
      const page = await t.app.inject({ method: "GET", url: `/docs/errors/${code}` });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers["content-type"]), /^text\/html/);
      assert.match(page.body, new RegExp(`<h1><code>${code}</code></h1>`));
    }
    assertProblem(await t.app.inject({ method: "GET", url: "/docs/errors/nope" }), 404, "not_found");
  });

  it("503 api_unconfigured on every keyed endpoint until the schema exists", async (context) => {
    const bare = await createTestApp({ migrate: false }, context);
    for (const [method, url] of [
      ["POST", "/v1/tool/echo"],
      ["GET", "/v1/tools/list"],
      ["GET", "/v1/me/credits"],
    ] as const) {
      assertProblem(
        await bare.app.inject({
          method,
          url,
          headers: bearer(key),
          payload: method === "POST" ? "{}" : undefined,
        }),
        503,
        "api_unconfigured",
      );
    }
    const ready = await bare.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().code, "api_unconfigured");
    assert.deepEqual(ready.json().checks, {
      database: "ok",
      rate_limiter: "ok",
      schema: "missing",
      writes: "unchecked",
    });
  });

  it("503 backend_unavailable when the database cannot be reached, charging nothing", async (context) => {
    const down = await createTestApp({}, context);
    const k = await down.key();
    const store = down.store as { -readonly [K in keyof Store]: Store[K] };
    const original = store.findKeyByHash;
    store.findKeyByHash = async () => {
      throw new BackendUnavailableError("database", new Error("connect ECONNREFUSED"));
    };
    const res = await down.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(k)),
      payload: { value: 1 },
    });
    assertProblem(res, 503, "backend_unavailable");
    assert.equal(res.headers["retry-after"], "1");
    assert.doesNotMatch(res.body, /ECONNREFUSED/);
    store.findKeyByHash = original;
    const after = await down.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(k)),
      payload: { value: 1 },
    });
    assert.equal(after.statusCode, 200);
  });

  it("503 backend_unavailable while another process holds the SQLite file's write lock, charging nothing", async (context) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-locked-"));
    const path = join(dir, "toolrun.db");
    try {
      const store = createSqliteStore(path, { busyTimeoutMs: 20 });
      const locked = await createTestApp({ store }, context);
      const k = await locked.key();
      const call = () =>
        locked.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(k)),
          payload: { value: 1 },
        });
      const other = new DatabaseSync(path);
      other.exec("BEGIN IMMEDIATE");
      const res = await call();
      other.exec("ROLLBACK");
      other.close();
      assertProblem(res, 503, "backend_unavailable");
      assert.equal(res.headers["retry-after"], "1");
      const credits = await locked.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(k) });
      assert.equal(credits.json().credits_used, 0);
      assert.equal((await call()).statusCode, 200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers 503 and delivers no result when the call cannot be recorded, charging nothing", async (context) => {
    const flaky = await createTestApp({}, context);
    const k = await flaky.key();
    const store = flaky.store as { -readonly [K in keyof Store]: Store[K] };
    const runCall = store.runCall;
    let ran = false;
    store.runCall = async (_reservation, work) => {
      ran = (await work()).ok;
      throw new BackendUnavailableError("database", new Error("connection terminated"));
    };
    const res = await flaky.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(k)),
      payload: { value: 1 },
    });
    assert.equal(ran, true);
    assertProblem(res, 503, "backend_unavailable");
    assert.doesNotMatch(res.body, /"outputs"/);
    store.runCall = runCall;
    const credits = await flaky.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(k) });
    assert.equal(credits.json().credits_used, 0);
  });
});
