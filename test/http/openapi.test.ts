/**
 * `GET /openapi.json`: a valid OpenAPI 3.1 document of every endpoint, made from the declarations
 * that serve them, keyless and slot-free. (That every response of the HTTP suite conforms to it is
 * checked by the test helper, see test/helpers/response-contract.ts.)
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { validate } from "@readme/openapi-parser";
import { errorCatalog } from "../../src/core/kernel/errors.ts";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";

type Json = Record<string, unknown>;

describe("GET /openapi.json", () => {
  let t: TestApp;
  let document: Json;
  const suite = untilSuiteEnds();
  const operations = () =>
    Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
    );

  before(async () => {
    t = await createTestApp({ tools: [...tools, ...fixtureTools] }, suite);
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(res.statusCode, 200);
    document = res.json();
  });

  it("is a valid OpenAPI 3.1 document by a real validator", async () => {
    assert.equal(document.openapi, "3.1.0");
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    assert.equal(result.valid, true, JSON.stringify(result, null, 1));
  });

  it("needs no key and takes no slot", async () => {
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.ratelimit, undefined);
  });

  it("documents every endpoint: tools, catalog, account, MCP, health and the reference", () => {
    const documented = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    for (const expected of [
      "POST /v1/tool/{slug}",
      "GET /v1/tool/{slug}",
      "GET /v1/tools/list",
      "GET /v1/tools/search",
      "GET /v1/me/credits",
      "GET /v1/me/usage",
      "POST /mcp",
      "GET /mcp",
      "GET /healthz",
      "GET /readyz",
      "GET /openapi.json",
      "GET /docs",
      "GET /docs/errors/{code}",
      ...[...tools, ...fixtureTools].map((tool) => `POST /v1/tool/${tool.slug}`),
    ]) {
      assert.ok(documented.includes(expected), `${expected} is missing from ${documented.join(", ")}`);
    }
  });

  it("answers 405 with Allow on every documented path, from the same declarations", async () => {
    const paths = document.paths as Record<string, Json>;
    const matches = (template: string, url: string) =>
      new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(url);
    // A method documented by its refusal (GET /mcp answers 405) is not one the path allows.
    const allowed = (item: Json) =>
      Object.entries(item)
        .filter(([, op]) => !("405" in ((op as Json).responses as Json)))
        .map(([method]) => method.toUpperCase());
    for (const path of Object.keys(paths)) {
      const url = path.replace(/\{[^}]+\}/g, "echo");
      // A tool's own path is also served by `/v1/tool/{slug}`: the URL allows what both declare.
      const methods = new Set(
        Object.keys(paths)
          .filter((template) => matches(template, url))
          .flatMap((template) => allowed(paths[template] as Json)),
      );
      // A capture's address takes every method, so it refuses none.
      if (path === "/hooks/{token}") continue;
      if (methods.has("GET")) methods.add("HEAD");
      // PUT: no other endpoint declares it, so every other documented path refuses it.
      const res = await t.app.inject({ method: "PUT", url });
      assert.equal(res.statusCode, 405, `PUT ${url}`);
      assert.deepEqual(String(res.headers.allow).split(", ").sort(), [...methods].sort(), url);
    }
  });

  it("lists only the API: not the console's pages nor the reference's scripts and style sheets", async () => {
    const paths = Object.keys(document.paths as Json);
    for (const path of ["/", "/tools/{slug}", "/account", "/console/{file}", "/docs/assets/{file}"])
      assert.ok(!paths.includes(path), `${path} is in the reference`);
    assert.ok(!(document.tags as Json[]).some((tag) => tag.name === "Console"));
    // They are still served, and still answer a wrong method with 405.
    for (const url of ["/", "/tools/echo", "/account", "/console/console.js", "/docs/assets/reference.js"]) {
      assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 200, url);
      assert.equal((await t.app.inject({ method: "DELETE", url })).statusCode, 405, url);
    }
  });

  it("documents GET /mcp's 405, the answer MCP clients get when they ask for a stream", async () => {
    const get = ((document.paths as Json)["/mcp"] as Json).get as Json;
    const refusal = (get.responses as Json)["405"] as Json;
    assert.match(String(refusal.description), /method_not_allowed/);
    assert.deepEqual(Object.keys(refusal.headers as Json), ["Allow"]);
    const res = await t.app.inject({ method: "GET", url: "/mcp", headers: { accept: "text/event-stream" } });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, "POST");
    assert.equal(res.json().code, "method_not_allowed");
  });

  it("names OpenAPI's base dialect, the one renderers read as JSON Schema 2020-12", () => {
    assert.equal(document.jsonSchemaDialect, "https://spec.openapis.org/oas/3.1/dialect/base");
  });

  it("gives each tool its own input schema, envelope and examples", () => {
    for (const tool of tools) {
      const op = ((document.paths as Json)[`/v1/tool/${tool.slug}`] as Json).post as Json;
      const media = ((op.requestBody as Json).content as Json)["application/json"] as Json;
      const { $schema: _dialect, ...input } = tool.inputSchema;
      assert.deepEqual(media.schema, input);
      assert.deepEqual(
        Object.values(media.examples as Json).map((e) => (e as Json).value),
        tool.examples.map((e) => e.input),
      );
      const ok = (((op.responses as Json)["200"] as Json).content as Json)["application/json"] as Json;
      const envelope = ok.schema as Json;
      assert.deepEqual((envelope.properties as Json).tool, { type: "string", const: tool.slug });
    }
  });

  it("answers every error as application/problem+json with the problem schema, by code", () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        const content = (response as Json).content as Json;
        const problem = content["application/problem+json"] as Json | undefined;
        if (path === "/mcp" && problem === undefined) continue; // JSON-RPC errors of the transport
        assert.deepEqual(
          problem?.schema,
          { $ref: "#/components/schemas/Problem" },
          `${method} ${path} ${status}`,
        );
      }
    }
    const problem = (document.components as Json).schemas as Json;
    const code = ((problem.Problem as Json).properties as Json).code as Json;
    assert.deepEqual(code.enum, Object.keys(errorCatalog));
  });

  it("secures keyed operations with the bearer scheme and documents their 401 and 429", () => {
    assert.deepEqual(((document.components as Json).securitySchemes as Json).bearer, {
      type: "http",
      scheme: "bearer",
      description: "An API key: `Authorization: Bearer <API_KEY>`.",
    });
    const secured = operations().filter(({ op }) => (op.security as Json[]).length > 0);
    const keyed = secured.filter(({ path }) => !path.startsWith("/admin/"));
    assert.ok(keyed.length >= 8);
    for (const { path, method, op } of keyed) {
      assert.deepEqual(op.security, [{ bearer: [] }]);
      const responses = op.responses as Json;
      assert.ok(responses["401"] && responses["429"], `${method} ${path}`);
    }
    // The admin API: admin keys only, each with its own window, so 429 too.
    const admin = secured.filter(({ path }) => path.startsWith("/admin/"));
    assert.ok(admin.length >= 11);
    for (const { path, method, op } of admin) {
      assert.deepEqual(op.security, [{ adminBearer: [] }]);
      const responses = op.responses as Json;
      assert.ok(responses["401"] && responses["429"], `${method} ${path}`);
    }
    for (const path of ["/healthz", "/readyz", "/openapi.json", "/docs"]) {
      assert.deepEqual((((document.paths as Json)[path] as Json).get as Json).security, []);
    }
  });

  it("declares the Idempotency-Key header and the answers it adds on every tool call", () => {
    for (const path of ["/v1/tool/{slug}", ...tools.map((tool) => `/v1/tool/${tool.slug}`)]) {
      const op = ((document.paths as Json)[path] as Json).post as Json;
      const header = (op.parameters as Json[]).find((p) => p.in === "header");
      assert.deepEqual(header && { ...header, description: undefined }, {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: undefined,
        schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
      });
      const responses = op.responses as Record<string, Json>;
      for (const status of ["200", "422", "500"]) {
        const headers = responses[status]?.headers as Json | undefined;
        assert.ok(headers?.["Idempotent-Replayed"], `${path} ${status}`);
      }
      assert.match(String(responses["409"]?.description), /idempotency_key_in_use/);
      assert.ok((responses["409"]?.headers as Json | undefined)?.["Retry-After"]);
      assert.match(String(responses["422"]?.description), /idempotency_key_mismatch/);
    }
  });
});
