/**
 * `GET /metrics`: the series move by exactly the calls and credits made, over HTTP and over MCP;
 * routes are labelled by their pattern; refusals and backend failures are counted; a token, when
 * set, guards the page.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { createMetrics } from "../../src/http/metrics.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import {
  bearer,
  createTestApp,
  json,
  type TestApp,
  type TestAppOptions,
  toolClient,
} from "../helpers/app.ts";
import { connect, startMcpApp } from "../mcp/helpers.ts";

const PLANS = {
  free: { id: "free", label: "Free member", rpm: 1000, monthlyCredits: 1000, minCredits: 2 },
};

/** The samples of the text exposition, keyed `name{label="value",...}` as Prometheus prints them. */
async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const res = await t.app.inject({ method: "GET", url: "/metrics", headers });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of res.body.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

function withMetrics(options: TestAppOptions = {}, token: string | null = null) {
  const metrics = createMetrics();
  return {
    metrics,
    options: {
      ...options,
      observer: metrics,
      appOptions: { metrics: { metrics, token } },
    } satisfies TestAppOptions,
  };
}

/** Three charged, two refunded, one refused: on a 10-credit key where echo costs 3. */
const CALLS = [
  { value: 1 },
  { value: 2, mode: "unprocessable" },
  { value: 3 },
  { value: 4, mode: "crash" },
  { value: 5 },
  { value: 6 },
];

function expectCalls(samples: Map<string, number>, tool: string): void {
  assert.equal(samples.get(`toolrun_tool_calls_total{tool="${tool}",outcome="charged"}`), 3);
  assert.equal(samples.get(`toolrun_tool_calls_total{tool="${tool}",outcome="refunded"}`), 2);
  assert.equal(samples.get(`toolrun_tool_calls_total{tool="${tool}",outcome="refused"}`), 1);
  assert.equal(samples.get(`toolrun_credits_charged_total{tool="${tool}"}`), 9);
}

describe("GET /metrics", () => {
  it("counts exactly the HTTP calls charged, refunded and refused, and the credits charged", async (context) => {
    const { options } = withMetrics({ plans: PLANS });
    const t = await createTestApp(options, context);
    try {
      const key = await t.key("free", 10);
      const statuses = [];
      for (const payload of CALLS) {
        const res = await t.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload,
        });
        statuses.push(res.statusCode);
      }
      assert.deepEqual(statuses, [200, 422, 200, 500, 200, 402]);
      // Not a metered call: invalid input never reaches the ledger.
      const invalid = await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 500 },
      });
      assert.equal(invalid.statusCode, 400);

      const samples = await scrape(t);
      expectCalls(samples, "echo");
      const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
      assert.equal(credits.json().credits_used, 9);
      assert.equal(
        samples.get('toolrun_http_requests_total{route="/v1/tool/:slug",method="POST",status="200"}'),
        3,
      );
      assert.equal(
        samples.get('toolrun_http_request_duration_seconds_count{route="/v1/tool/:slug",method="POST"}'),
        7,
      );
      assert.ok(samples.has("process_cpu_user_seconds_total"), "prom-client's process defaults");
    } finally {
      await t.close();
    }
  });

  it("counts exactly the MCP tool calls the same way", async (context) => {
    const { options } = withMetrics({ plans: PLANS });
    const t = await startMcpApp(options, context);
    const key = await t.key("free", 10);
    const client = await connect(t.mcp, key, "2025-11-25");
    try {
      const errors = [];
      for (const args of CALLS)
        errors.push((await client.callTool({ name: "echo", arguments: args })).isError);
      assert.deepEqual(errors, [undefined, true, undefined, true, undefined, true]);
      expectCalls(await scrape(t), "echo");
    } finally {
      await client.close();
      await t.close();
    }
  });

  it("labels requests by route pattern, never by the URL asked for", async (context) => {
    const { options } = withMetrics();
    const t = await createTestApp(options, context);
    try {
      const key = await t.key("free");
      await t.app.inject({ method: "GET", url: "/v1/tool/echo", headers: bearer(key) });
      await t.app.inject({ method: "GET", url: "/v1/tool/no-such-tool", headers: bearer(key) });
      await t.app.inject({ method: "GET", url: "/wp-admin/setup.php" });
      await t.app.inject({ method: "DELETE", url: "/metrics" });
      const samples = await scrape(t);
      assert.equal(
        samples.get('toolrun_http_requests_total{route="/v1/tool/:slug",method="GET",status="200"}'),
        1,
      );
      assert.equal(
        samples.get('toolrun_http_requests_total{route="/v1/tool/:slug",method="GET",status="404"}'),
        1,
      );
      assert.equal(
        samples.get('toolrun_http_requests_total{route="(unmatched)",method="GET",status="404"}'),
        1,
      );
      assert.equal(
        samples.get('toolrun_http_requests_total{route="/metrics",method="DELETE",status="405"}'),
        1,
      );
      const labels = [...samples.keys()].join("\n");
      assert.doesNotMatch(labels, /wp-admin|no-such-tool|x=1/);
    } finally {
      await t.close();
    }
  });

  it("counts a retry answered from its Idempotency-Key as replayed, charging no credits", async (context) => {
    const { options } = withMetrics({ plans: PLANS });
    const t = await createTestApp(options, context);
    const key = await t.key("free");
    const post = (payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "idempotency-key": "metered-once" }),
        payload,
      });
    const statuses = [];
    for (const payload of ['{"value": 1}', '{"value": 1}', '{"value": 1}', '{"value": 2}'])
      statuses.push((await post(payload)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 422]);
    const samples = await scrape(t);
    assert.equal(samples.get('toolrun_tool_calls_total{tool="echo",outcome="charged"}'), 1);
    assert.equal(samples.get('toolrun_tool_calls_total{tool="echo",outcome="replayed"}'), 2);
    assert.equal(samples.get('toolrun_tool_calls_total{tool="echo",outcome="refused"}'), 1);
    assert.equal(samples.get('toolrun_credits_charged_total{tool="echo"}'), 3);
  });

  it("counts 429 rate_limited answers", async (context) => {
    const { options } = withMetrics({ plans: { free: { ...PLANS.free, rpm: 2 } } });
    const t = await createTestApp(options, context);
    try {
      const key = await t.key("free");
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).statusCode,
        );
      assert.deepEqual(statuses, [200, 200, 429, 429]);
      assert.equal((await scrape(t)).get("toolrun_rate_limited_total"), 2);
    } finally {
      await t.close();
    }
  });

  it("counts requests that found the database unreachable", async (context) => {
    const store = createSqliteStore(":memory:");
    let down = false;
    const flaky = {
      ...store,
      async findKeyByHash(hash: string) {
        if (down) throw new BackendUnavailableError("database", new Error("ECONNREFUSED"));
        return store.findKeyByHash(hash);
      },
    };
    const { options } = withMetrics({ store: flaky });
    const t = await createTestApp(options, context);
    try {
      const key = await t.key("free");
      const before = await scrape(t);
      assert.equal(before.get('toolrun_backend_errors_total{backend="database"}'), 0);
      down = true;
      const res = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
      assert.equal(res.statusCode, 503);
      assert.equal((await scrape(t)).get('toolrun_backend_errors_total{backend="database"}'), 1);
    } finally {
      await t.close();
    }
  });

  it("counts a backend failure once, whichever transport met it: an HTTP call, an MCP call, an MCP tools/list", async (context) => {
    const store = createSqliteStore(":memory:");
    let down = false;
    const flaky = {
      ...store,
      async getSwitches() {
        if (down) throw new BackendUnavailableError("database", new Error("ECONNREFUSED"));
        return store.getSwitches();
      },
    };
    const { options } = withMetrics({ store: flaky });
    const t = await startMcpApp(options, context);
    const key = await t.key("free");
    const client = await connect(t.mcp, key, "2025-11-25");
    const count = async () => (await scrape(t)).get('toolrun_backend_errors_total{backend="database"}');
    try {
      down = true;
      assert.equal((await toolClient(t, "echo", key).post({ value: 1 })).statusCode, 503);
      assert.equal(await count(), 1);
      const call = await client.callTool({ name: "echo", arguments: { value: 1 } });
      assert.equal(call.isError, true);
      assert.equal(await count(), 2);
      await assert.rejects(client.listTools(), /cannot reach its database/);
      assert.equal(await count(), 3);
    } finally {
      await client.close();
      await t.close();
    }
  });

  it("asks for the token when TOOLRUN_METRICS_TOKEN is set", async (context) => {
    const { options } = withMetrics({}, "s3cret-token");
    const t = await createTestApp(options, context);
    try {
      for (const authorization of [undefined, "Bearer wrong", "s3cret-token"]) {
        const res = await t.app.inject({
          method: "GET",
          url: "/metrics",
          headers: authorization === undefined ? {} : { authorization },
        });
        assert.equal(res.statusCode, 401);
        assert.match(String(res.headers["content-type"]), /^application\/problem\+json/);
        assert.equal(res.json().code, "invalid_api_key");
      }
      assert.ok(
        (await scrape(t, { authorization: "Bearer s3cret-token" })).has("toolrun_rate_limited_total"),
      );
    } finally {
      await t.close();
    }
  });
});

describe("the metrics docs", () => {
  it("name only series /metrics exposes: the Grafana dashboard and docs/operations.md", async (context) => {
    const { options } = withMetrics();
    const t = await createTestApp(options, context);
    try {
      const key = await t.key("free");
      await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 1 },
      });
      const exposed = [...(await scrape(t)).keys()].map((sample) => sample.replace(/\{.*$/, ""));
      // A family whose labels are known only once it counts something (a tool's upstream failures)
      // is declared before its first sample.
      const page = await t.app.inject({ method: "GET", url: "/metrics" });
      exposed.push(...[...page.body.matchAll(/^# TYPE (\S+)/gm)].map((m) => String(m[1])));
      const dashboard = readFileSync(new URL("../../docs/grafana-dashboard.json", import.meta.url), "utf8");
      const operations = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
      const named = new Set([
        ...[...dashboard.matchAll(/\b((?:toolrun|process)_[a-z_]+)/g)].map((m) => m[1]),
        ...[...operations.matchAll(/`(toolrun_[a-z_]+)`/g)].map((m) => m[1]),
      ]);
      assert.ok(named.size >= 8, [...named].join(", "));
      for (const name of named) {
        assert.ok(
          exposed.some((e) => e === name || e.startsWith(`${name}_`)),
          `${name} is not exposed`,
        );
      }
      assert.doesNotThrow(() => JSON.parse(dashboard));
    } finally {
      await t.close();
    }
  });
});
