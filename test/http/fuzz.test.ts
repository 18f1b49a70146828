/**
 * A bounded fuzz over the query string, the path parameters and the headers of every
 * endpoint the OpenAPI document declares: whatever arrives, the answer is never a 500, carries an
 * `x-request-id`, and every error is a problem document with its code (on `/mcp`, the transport's
 * own protocol errors are JSON-RPC error objects with theirs; a 404 asked for as HTML is the site's
 * 404 page).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import { DEFAULT_PLANS } from "../../src/core/kernel/settings.ts";
import { createTestApp } from "../helpers/app.ts";
import { storesToTest } from "../helpers/stores.ts";

type Json = Record<string, unknown>;

/** Text a client may put in a query or a path: printable, percent-escapes, odd names included. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    "",
    "0",
    "-1",
    "1e309",
    "NaN",
    "999999999999999999999",
    "__proto__",
    "constructor",
    "%ZZ",
    "%00",
  ),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  // Usage cursors in the service's own form (`u1:` and a sequence number, base64url), forged.
  fc.bigInt({ min: 0n, max: 10n ** 20n }).map((n) => Buffer.from(`u1:${n}`).toString("base64url")),
);
const queryName = fc.oneof(
  fc.constantFrom(
    "q",
    "limit",
    "cursor",
    "slug",
    "__proto__",
    "constructor",
    "toString",
    "api_key",
    "q[]",
    "a.b",
  ),
  fc.string({ minLength: 1, maxLength: 8 }),
);
const headerName = fc.constantFrom(
  "authorization",
  "x-request-id",
  "content-type",
  "accept",
  "origin",
  "mcp-protocol-version",
  "idempotency-key",
  "if-none-match",
  "x-forwarded-for",
  "cookie",
);
/** Header values Node would accept on the wire: visible ASCII and spaces. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.constantFrom(
    "Bearer",
    "Bearer ",
    "bearer x",
    "application/json",
    "text/html",
    "*/*",
    "http://evil.test",
  ),
);

const stores = storesToTest({ postgres: "system" });

for (const { name, make } of stores)
  it(`answers every fuzzed query, path and header without a 500, always with a code (${name})`, async (context) => {
    const plans = {
      free: { ...DEFAULT_PLANS.free, rpm: 1_000_000 },
      builder: { ...DEFAULT_PLANS.builder, rpm: 1_000_000 },
    };
    const store = await make();
    const t = await createTestApp({ plans: plans as typeof DEFAULT_PLANS, ...(store && { store }) }, context);
    const key = await t.key("builder");
    const document = t.app.openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ["get", "post", "put", "patch", "delete", "head", "options"].includes(method))
        .map((method) => ({ path, method: method.toUpperCase() })),
    );
    assert.ok(operations.length >= 10, `${operations.length} operations declared`);

    const request = fc.record({
      operation: fc.constantFrom(...operations),
      pathValue: text,
      query: fc.array(fc.tuple(queryName, text), { maxLength: 4 }),
      headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
      keyed: fc.boolean(),
    });

    await fc.assert(
      fc.asyncProperty(request, async ({ operation, pathValue, query, headers, keyed }) => {
        const path = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pathValue) || "x");
        const search = new URLSearchParams(query).toString();
        const sent: Record<string, string> = {};
        for (const [name, value] of headers) sent[name] = value;
        if (keyed) sent.authorization = `Bearer ${key}`;
        const res = await t.app.inject({
          method: operation.method as "GET",
          url: search === "" ? path : `${path}?${search}`,
          headers: sent,
          ...(operation.method === "POST" ? { payload: "{}" } : {}),
        });
        const label = `${operation.method} ${path}?${search} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        assert.ok(res.statusCode < 500 || res.statusCode === 503, label);
        assert.ok(typeof res.headers["x-request-id"] === "string", `${label}: no x-request-id`);
        // The MCP transport answers its own protocol errors (406, 415, a body that is not JSON-RPC)
        // as JSON-RPC error objects, as the MCP specification has them.
        if (
          res.statusCode >= 400 &&
          operation.path === "/mcp" &&
          !/problem/.test(String(res.headers["content-type"]))
        ) {
          const answer = res.json() as { error?: { code?: unknown } };
          assert.equal(typeof answer.error?.code, "number", label);
        } else if (res.statusCode === 404 && /^text\/html/.test(String(res.headers["content-type"]))) {
          // The site's 404 page, only ever to a request whose Accept asks for HTML.
          assert.match(sent.accept ?? "", /text\/html/, label);
          assert.match(res.body, /data-page="not-found"/, label);
        } else if (res.statusCode >= 400 && operation.method !== "HEAD") {
          assert.match(String(res.headers["content-type"]), /^application\/problem\+json/, label);
          const problem = res.json() as Json;
          assert.equal(typeof problem.code, "string", label);
          assert.equal(problem.status, res.statusCode, label);
          assert.equal(problem.request_id, res.headers["x-request-id"], label);
        }
      }),
      { numRuns: 400, seed: Number(process.env.FUZZ_SEED ?? 15) },
    );
  });
