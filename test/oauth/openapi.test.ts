/**
 * What `/openapi.json` (and `/docs`, which renders it in the browser) says about OAuth: with OAuth
 * on, the `oauth2` security scheme (authorization code, at this issuer's authorization and token
 * endpoints, scope `mcp`), the library's endpoints and the protected-resource metadata, and
 * `POST /mcp` taking either an API key or an OAuth token; with `TOOLRUN_OAUTH=off`, none of it.
 * The settings come from the configuration as the server reads it.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { validate } from "@readme/openapi-parser";
import { loadConfig } from "../../src/config.ts";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, untilSuiteEnds } from "../helpers/app.ts";

type Json = Record<string, unknown>;

const PUBLIC_URL = "https://tools.example.com";

const OAUTH_OPERATIONS = [
  "GET /.well-known/oauth-protected-resource/mcp",
  "GET /.well-known/oauth-protected-resource",
  "GET /.well-known/oauth-authorization-server",
  "GET /.well-known/openid-configuration",
  "GET /oauth/authorize",
  "GET /oauth/authorize/{uid}",
  "POST /oauth/token",
  "POST /oauth/register",
  "POST /oauth/revoke",
  "GET /oauth/jwks",
];

async function served(env: Record<string, string>, suite: ReturnType<typeof untilSuiteEnds>) {
  const { oauth } = loadConfig({ TOOLRUN_PUBLIC_URL: PUBLIC_URL, ...env });
  const t = await createTestApp({ tools, appOptions: { oauth } }, suite);
  const response = await t.app.inject({ method: "GET", url: "/openapi.json" });
  assert.equal(response.statusCode, 200);
  const document = response.json() as Json;
  const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
  const operation = (path: string, method: string) =>
    (document.paths as Record<string, Record<string, Json>>)[path]?.[method] as Json;
  const schemes = (document.components as Json).securitySchemes as Json;
  return { t, document, operations, operation, schemes };
}

describe("/openapi.json with OAuth on (the default)", () => {
  const suite = untilSuiteEnds();
  let on: Awaited<ReturnType<typeof served>>;
  before(async () => {
    on = await served({}, suite);
  });

  it("is still a valid OpenAPI 3.1 document by a real validator", async () => {
    const result = await validate(structuredClone(on.document) as unknown as Parameters<typeof validate>[0]);
    assert.equal(result.valid, true, JSON.stringify(result, null, 1));
  });

  it("has the oauth2 scheme: authorization code at this issuer's endpoints, scope mcp", () => {
    const scheme = on.schemes.oauth2 as Json;
    assert.equal(scheme.type, "oauth2");
    const flows = scheme.flows as Json;
    assert.deepEqual(Object.keys(flows), ["authorizationCode"], "the authorization code flow only");
    const flow = flows.authorizationCode as Json;
    assert.equal(flow.authorizationUrl, `${PUBLIC_URL}/oauth/authorize`);
    assert.equal(flow.tokenUrl, `${PUBLIC_URL}/oauth/token`);
    assert.equal(flow.refreshUrl, `${PUBLIC_URL}/oauth/token`);
    assert.deepEqual(Object.keys(flow.scopes as Json), ["mcp"]);
    assert.match(String(scheme.description), /PKCE \(S256\)/);
    assert.match(String(scheme.description), new RegExp(`${PUBLIC_URL}/mcp`));
    assert.ok(on.schemes.bearer, "the API key scheme stays");
  });

  it("lets POST /mcp take an API key or an OAuth token, and only /mcp", () => {
    assert.deepEqual(on.operation("/mcp", "post").security, [{ bearer: [] }, { oauth2: ["mcp"] }]);
    const others = Object.entries(on.document.paths as Record<string, Record<string, Json>>).flatMap(
      ([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => JSON.stringify(op.security ?? []).includes("oauth2"))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(others, ["POST /mcp"]);
    assert.deepEqual(on.operation("/v1/me/usage", "get").security, [{ bearer: [] }], "/v1 stays key-only");
  });

  it("documents the OAuth endpoints, keyless, with OAuth's errors and the outage's 503", () => {
    for (const expected of OAUTH_OPERATIONS)
      assert.ok(on.operations.includes(expected), `${expected} is missing from ${on.operations.join(", ")}`);
    for (const [path, method] of [
      ["/oauth/token", "post"],
      ["/oauth/register", "post"],
      ["/oauth/revoke", "post"],
    ] as const) {
      const op = on.operation(path, method);
      assert.deepEqual(op.security, [], `${path} needs no key`);
      assert.deepEqual(op.tags, ["OAuth"]);
      const responses = op.responses as Record<string, Json>;
      const content = responses["400"]?.content as Record<string, Json> | undefined;
      const error = content?.["application/json"]?.schema;
      assert.deepEqual(error, { $ref: "#/components/schemas/OAuthError" }, `${path} answers OAuth errors`);
      assert.ok(responses["503"]?.headers, `${path} documents its 503 with Retry-After`);
    }
    assert.ok(((on.document.components as Json).schemas as Json).OAuthError);
  });

  it("is what /docs renders", async () => {
    const page = await on.t.app.inject({ method: "GET", url: "/docs" });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /href="\/openapi\.json"/);
    const script = await on.t.app.inject({ method: "GET", url: "/docs/assets/reference.js" });
    assert.match(script.body, /url: "\/openapi\.json"/);
  });
});

describe("/openapi.json with TOOLRUN_OAUTH=off", () => {
  const suite = untilSuiteEnds();
  let off: Awaited<ReturnType<typeof served>>;
  before(async () => {
    off = await served({ TOOLRUN_OAUTH: "off" }, suite);
  });

  it("has no oauth2 scheme, no OAuth endpoint, and POST /mcp takes an API key only", () => {
    assert.equal(off.schemes.oauth2, undefined);
    assert.ok(off.schemes.bearer);
    for (const operation of OAUTH_OPERATIONS)
      assert.ok(!off.operations.includes(operation), `${operation} is documented`);
    assert.deepEqual(
      off.operations.filter((o) => /oauth/i.test(o) && !o.includes("/admin/")),
      [],
    );
    assert.deepEqual(off.operation("/mcp", "post").security, [{ bearer: [] }]);
    assert.ok(!JSON.stringify(off.document).includes('"oauth2"'));
    assert.ok(!((off.document.tags as Json[]) ?? []).some((tag) => tag.name === "OAuth"));
  });
});
