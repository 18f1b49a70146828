import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

describe("POST /v1/tool/{slug}: happy paths", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let key: string;
  before(async () => {
    t = await createTestApp({}, suite);
    key = await t.key("free");
  });

  it("runs the tool and returns the envelope, charged max(weight, plan minimum)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 21 },
    });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body, {
      tool: "echo",
      tool_version: "2.1.0",
      outputs: { value: 21, doubled: 42 },
      credits_used: 3,
      credits_remaining: 997,
      request_id: res.headers["x-request-id"],
    });
    assert.match(String(res.headers["x-request-id"]), /^req_[A-Za-z0-9]{20}$/);
    assert.equal(res.headers["ratelimit-policy"], '"minute";q=60;w=60');
    assert.match(String(res.headers.ratelimit), /^"minute";r=59;t=\d+$/);
  });

  it("charges the plan minimum when the tool weighs less", async (context) => {
    const cheap = await createTestApp({ toolSettings: { echo: { weight: 1 } } }, context);
    const free = await cheap.key("free");
    const builder = await cheap.key("builder");
    const a = await cheap.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(free)),
      payload: { value: 1 },
    });
    const b = await cheap.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(builder)),
      payload: { value: 1 },
    });
    assert.equal(a.json().credits_used, 2);
    assert.equal(b.json().credits_used, 1);
    assert.equal(b.json().credits_remaining, 99_999);
  });

  it("accepts numbers sent as numeric strings", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: " 2.5 " },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().outputs, { value: 2.5, doubled: 5 });
  });

  it("echoes a sane client request id and replaces an unsafe one", async () => {
    const mine = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json({ ...bearer(key), "x-request-id": "client-42.a_b" }),
      payload: { value: 1 },
    });
    assert.equal(mine.headers["x-request-id"], "client-42.a_b");
    assert.equal(mine.json().request_id, "client-42.a_b");
    const unsafe = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json({ ...bearer(key), "x-request-id": "bad id<script>" }),
      payload: { value: 1 },
    });
    assert.match(String(unsafe.headers["x-request-id"]), /^req_/);
  });

  it("does not need a JSON content type to read a JSON body", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: { ...bearer(key), "content-type": "text/plain" },
      payload: '{"value": 4}',
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().outputs.doubled, 8);
  });

  it("reports metering off: no charge, credits_remaining null, never 402", async (context) => {
    const off = await createTestApp({ metering: false }, context);
    const k = await off.key("free", 0);
    const res = await off.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(k)),
      payload: { value: 3 },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().credits_used, 0);
    assert.equal(res.json().credits_remaining, null);
    const credits = await off.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(k) });
    assert.deepEqual(
      {
        ...credits.json<Record<string, unknown>>(),
        period_start: undefined,
        period_end: undefined,
        key: undefined,
      },
      {
        account_id: (await off.recordOf(k)).accountId,
        account_name: "test",
        plan: "free",
        monthly_allowance: null,
        credits_used: 0,
        monthly_remaining: null,
        credits_remaining: null,
        grants: [],
        metering: false,
        period_start: undefined,
        period_end: undefined,
        key: undefined,
      },
    );
    const usage = await off.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(k) });
    assert.equal(usage.json().calls, 1);
  });
});

describe("GET catalog endpoints", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let key: string;
  before(async () => {
    t = await createTestApp({}, suite);
    key = await t.key("builder");
  });

  it("lists every tool with its exact cost for the calling key", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/tools/list", headers: bearer(key) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().tools, [
      {
        slug: "echo",
        name: "Echo",
        description: "Returns the number it is given, doubled. Made for tests.",
        tool_version: "2.1.0",
        credits: 3,
        enabled: true,
        api: true,
      },
      {
        slug: "heavy-text",
        name: "Heavy Text Counter",
        description: "Counts characters of a long text. Made for tests.",
        tool_version: "1.0.0",
        credits: 5,
        enabled: true,
        api: true,
      },
    ]);
    assert.ok(res.headers.ratelimit);
  });

  it("searches by relevance over slug, name, keywords and description", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/tools/search?q=double", headers: bearer(key) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().query, "double");
    assert.deepEqual(
      res.json().tools.map((tool: { slug: string }) => tool.slug),
      ["echo"],
    );
    const both = await t.app.inject({
      method: "GET",
      url: "/v1/tools/search?q=text%20echo&limit=1",
      headers: bearer(key),
    });
    assert.equal(both.json().tools.length, 1);
    const none = await t.app.inject({ method: "GET", url: "/v1/tools/search?q=zzzz", headers: bearer(key) });
    assert.deepEqual(none.json().tools, []);
  });

  it("describes one tool with its schemas, examples and limits", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/tool/echo", headers: bearer(key) });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.slug, "echo");
    assert.equal(body.credits, 3);
    assert.equal(body.input_schema.required[0], "value");
    assert.deepEqual(body.output_schema.required, ["value", "doubled"]);
    assert.deepEqual(body.examples, [{ title: "Double 21", input: { value: 21 } }]);
    assert.deepEqual(body.limits, { max_body_bytes: 256 });
  });
});
