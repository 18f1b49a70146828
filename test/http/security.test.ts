/**
 * The auth failures every keyed endpoint shares: each answers 401 `invalid_api_key` with
 * `WWW-Authenticate: Bearer` (RFC 6750: `error="invalid_token"` and the detail when a key was sent),
 * and none of them takes a rate-limit slot. The endpoints are the keyed operations the app declares
 * (read from its OpenAPI document, which is made from the declarations), so a new keyed route is
 * covered without editing this file.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { rotateApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { hashKey } from "../../src/core/kernel/key-format.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

interface Endpoint {
  method: "GET" | "POST" | "DELETE";
  url: string;
  payload?: Record<string, unknown>;
}

/** Every keyed operation of the document, with path parameters filled with a real tool's slug. */
async function keyedEndpoints(): Promise<Endpoint[]> {
  const t = await createTestApp({}, { after: () => {} });
  try {
    const document = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    const endpoints: Endpoint[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) {
        // Customer-keyed operations only: the admin API's are pinned by test/admin/security.test.ts.
        if (!op.security.some((scheme) => "bearer" in scheme)) continue;
        const url = path.replace("{slug}", "echo");
        endpoints.push(
          method === "post"
            ? { method: "POST", url, payload: { value: 1 } }
            : { method: method === "delete" ? "DELETE" : "GET", url },
        );
      }
    }
    // `/v1/tool/{slug}` filled in is the same URL as the tool's own path.
    return [...new Map(endpoints.map((e) => [`${e.method} ${e.url}`, e])).values()];
  } finally {
    await t.close();
  }
}

interface Operation {
  security: Record<string, unknown>[];
}

const KEYED_ENDPOINTS = await keyedEndpoints();
/** RFC 6750 3.1: a request with no bearer token gets a challenge without an error code. */
const NO_TOKEN_SENT = ["no Authorization header", "an empty Authorization header", "a non-Bearer scheme"];

describe("security: authentication on every keyed endpoint", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  const cases: [string, () => Promise<Record<string, string>>][] = [];

  // By the secret's hash: keys made in the same instant have no reliable order in listKeys.
  const recordOf = (secret: string) => t.store.findKeyByHash(hashKey(secret));

  before(async () => {
    t = await createTestApp(
      {
        plans: { free: { id: "free", label: "Free", rpm: 3, monthlyCredits: 100, minCredits: 2 } },
      },
      suite,
    );
    const revoked = await t.key();
    const revokedRecord = await recordOf(revoked);
    assert.ok(revokedRecord);
    await t.store.revokeKey(revokedRecord.id, "2026-11-15T00:00:00.000Z");
    const rotatedAway = await t.key();
    const rotatedRecord = await recordOf(rotatedAway);
    assert.ok(rotatedRecord);
    await rotateApiKey(t.deps, cliActor("test"), rotatedRecord.id);
    cases.push(
      ["no Authorization header", async () => ({})],
      ["an empty Authorization header", async () => ({ authorization: "" })],
      [
        "a non-Bearer scheme",
        async () => ({ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }),
      ],
      ["a malformed key", async () => bearer("tr_live_short")],
      ["another prefix", async () => bearer(`tr_test_${"a".repeat(32)}`)],
      ["an unknown key", async () => bearer(`tr_live_${"A".repeat(32)}`)],
      ["a revoked key", async () => bearer(revoked)],
      ["a rotated-away key", async () => bearer(rotatedAway)],
    );
  });

  for (const endpoint of KEYED_ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.url} refuses every bad credential with 401`, async () => {
      for (const [label, headers] of cases) {
        const res = await t.app.inject({
          method: endpoint.method,
          url: endpoint.url,
          headers: json(await headers()),
          payload: "payload" in endpoint ? endpoint.payload : undefined,
        });
        assert.equal(res.statusCode, 401, `${label}: ${res.body}`);
        assert.equal(res.headers.ratelimit, undefined, label);
        const body = res.json();
        assert.equal(
          res.headers["www-authenticate"],
          NO_TOKEN_SENT.includes(label)
            ? 'Bearer realm="toolrun"'
            : `Bearer realm="toolrun", error="invalid_token", error_description="${body.detail}"`,
          label,
        );
        assert.equal(body.code, "invalid_api_key", label);
        assert.match(body.detail, /Authorization: Bearer <API_KEY>/, label);
      }
    });
  }

  it("covers every keyed route the app declares, MCP included", () => {
    const urls = KEYED_ENDPOINTS.map((e) => `${e.method} ${e.url}`);
    for (const expected of ["POST /v1/tool/echo", "GET /v1/tool/echo", "GET /v1/me/usage", "POST /mcp"]) {
      assert.ok(urls.includes(expected), `${expected} not in ${urls.join(", ")}`);
    }
  });

  it("takes no slot for refused credentials: a good key still has its whole window", async () => {
    const good = await t.key();
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(good) });
      assert.equal(res.statusCode, 200);
    }
    const fourth = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(good) });
    assert.equal(fourth.statusCode, 429);
  });

  it("the new secret of a rotated key works and keeps the account's balance", async () => {
    const original = await t.key("free");
    await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(original)),
      payload: { value: 1 },
    });
    const record = await recordOf(original);
    assert.ok(record);
    const rotated = await rotateApiKey(t.deps, cliActor("test"), record.id);
    const credits = await t.app.inject({
      method: "GET",
      url: "/v1/me/credits",
      headers: bearer(rotated.key),
    });
    assert.equal(credits.statusCode, 200);
    assert.equal(credits.json().credits_used, 3);
  });
});
