// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * OpenAPI 3.0 and 3.1 documents to `httpTools` declarations, read by the same parser the CLI uses:
 * one per operation, parameters and body in one input schema, OpenAPI's schema dialect turned into
 * JSON Schema 2020-12, and what cannot be carried over named. What it prints loads and runs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { dereference } from "@readme/openapi-parser";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import type { HttpToolDeclaration } from "../../src/core/tools/http-tool.ts";
import { loadTools } from "../../src/core/tools/loader.ts";
import {
  convertSchema,
  declarationsFromOpenApi,
  ImportError,
  type ImportOptions,
  kebabCase,
} from "../../src/core/tools/openapi-import.ts";
import { runToolCall } from "../../src/core/tools/run.ts";
import { startUpstream, type TestUpstream } from "../helpers/upstream.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/openapi/${name}`, import.meta.url));
const HELP_DESK = fixture("help-desk-3.0.yaml");
const WEATHER = fixture("weather-3.1.json");
const BILLING = fixture("billing-3.0.yaml");

async function importFile(file: string, options: ImportOptions = {}) {
  return declarationsFromOpenApi(await dereference(file, { dereference: { circular: "ignore" } }), options);
}

function bySlug(declarations: HttpToolDeclaration[], slug: string): HttpToolDeclaration {
  const found = declarations.find((d) => d.slug === slug);
  assert.ok(found, `no declaration ${slug} among ${declarations.map((d) => d.slug).join(", ")}`);
  return found;
}

describe("importing OpenAPI 3.0", () => {
  it("makes one declaration per operation that can be called, slugs in kebab-case, and names what it left out", async () => {
    const { declarations, warnings, skipped } = await importFile(HELP_DESK);
    assert.deepEqual(
      declarations.map((d) => [d.slug, d.method, d.url]),
      [
        ["list-tickets", "GET", "https://eu.helpdesk.example/api/v2/tickets"],
        ["create-ticket", "POST", "https://eu.helpdesk.example/api/v2/tickets"],
        ["get-ticket", "GET", "https://eu.helpdesk.example/api/v2/tickets/{ticketId}"],
        ["delete-ticket", "DELETE", "https://eu.helpdesk.example/api/v2/tickets/{ticketId}"],
        ["update-ticket", "PATCH", "https://eu.helpdesk.example/api/v2/tickets/{ticketId}"],
        ["export-tickets", "GET", "https://eu.helpdesk.example/api/v2/tickets/export"],
        ["search-tickets", "POST", "https://eu.helpdesk.example/api/v2/search?q={q}"],
        ["get-category-tree", "GET", "https://eu.helpdesk.example/api/v2/categories"],
      ],
    );
    assert.deepEqual(warnings, [
      "operation uploadAttachment is left out: its request body is not JSON",
      "operation searchTickets: its optional query parameter page is left out (a POST sends its input as the body)",
      "operation getCategoryTree: its answer's schema is left out (the answer schema is recursive ($ref #/components/schemas/Category))",
      "operation GET /health is left out: has no operationId, which its slug is made from",
      "set the environment variable BEARER_AUTH to the bearer token of security scheme bearerAuth",
    ]);
    assert.deepEqual(skipped, []);
  });

  it("merges the query parameters into the input schema and rewrites 3.0's schema dialect", async () => {
    const { declarations } = await importFile(HELP_DESK);
    const list = bySlug(declarations, "list-tickets");
    assert.deepEqual(list.inputSchema, {
      type: "object",
      additionalProperties: false,
      properties: {
        status: { type: "string", enum: ["open", "closed"], description: "Only tickets in this status." },
        // `minimum: 0` with `exclusiveMinimum: true` in 3.0.
        limit: { type: "integer", exclusiveMinimum: 0, maximum: 100 },
        // A header parameter is an input member the tool sends as that header.
        xRequestSource: { type: "string" },
      },
    });
    assert.deepEqual(list.headerFields, { "X-Request-Source": "xRequestSource" });
    assert.equal(list.name, "List tickets");
    assert.deepEqual(list.keywords, ["tickets"]);
    assert.equal(list.version, "2.1.0");
    assert.equal(list.weight, 1);
    assert.deepEqual(list.headers, { Authorization: "Bearer ${BEARER_AUTH}" });
  });

  it("merges the JSON request body with the path parameters, keeping what is required", async () => {
    const { declarations } = await importFile(HELP_DESK);
    const create = bySlug(declarations, "create-ticket");
    assert.equal(create.description, "Opens a ticket in the help desk.");
    assert.deepEqual(create.inputSchema, {
      type: "object",
      additionalProperties: false,
      required: ["title"],
      properties: {
        // `example` becomes `examples`; the `x-` extension goes.
        title: { type: "string", minLength: 1, examples: ["Printer on fire"] },
        // `nullable: true` becomes a null type and a null in the enum.
        priority: { type: ["string", "null"], enum: ["low", "normal", "high", null] },
      },
    });
    assert.deepEqual(create.outputSchema?.required, ["id", "title", "status"]);
    // A format the service checks is kept.
    assert.deepEqual((create.outputSchema?.properties as Record<string, unknown> | undefined)?.createdAt, {
      type: "string",
      format: "date-time",
    });
    // An optional body's members are all optional; a +json media type is JSON.
    const update = bySlug(declarations, "update-ticket");
    assert.deepEqual(update.inputSchema.required, ["ticketId"]);
    assert.deepEqual(Object.keys(update.inputSchema.properties as object), ["ticketId", "priority"]);
    const search = bySlug(declarations, "search-tickets");
    assert.deepEqual(search.inputSchema.required, ["q"]);
  });

  it("imports only the operations asked for, and names one that is not there", async () => {
    const only = await importFile(HELP_DESK, { operations: ["getTicket", "createTicket"] });
    assert.deepEqual(
      only.declarations.map((d) => d.slug),
      ["create-ticket", "get-ticket"],
    );
    const leftOut = await importFile(HELP_DESK, { operations: ["getTicket", "uploadAttachment"] });
    assert.deepEqual(leftOut.skipped, ["uploadAttachment"]);
    await assert.rejects(importFile(HELP_DESK, { operations: ["getTicket", "closeTicket"] }), (error) => {
      assert.ok(error instanceof ImportError);
      assert.equal(error.usage, true);
      assert.match(
        error.message,
        /^--operation closeTicket: no operation has this id \(the document has listTickets, /,
      );
      return true;
    });
  });

  it("uses --base-url instead of the document's server", async () => {
    const { declarations } = await importFile(HELP_DESK, { baseUrl: "http://127.0.0.1:9000/helpdesk/" });
    assert.equal(bySlug(declarations, "get-ticket").url, "http://127.0.0.1:9000/helpdesk/tickets/{ticketId}");
  });

  it("prints only declarations the service loads", async () => {
    const { declarations } = await importFile(HELP_DESK);
    const loaded = await loadTools({
      builtIns: [],
      httpTools: { declarations, configPath: "imported.json" },
      env: { BEARER_AUTH: "token" },
      cwd: ".",
      upstream: createHttpUpstream(),
    });
    assert.equal(loaded.length, declarations.length);
  });
});

describe("importing OpenAPI 3.1", () => {
  let server: TestUpstream;
  before(async () => {
    server = await startUpstream();
  });
  after(() => server.close());

  it("needs --base-url when the document names no server", async () => {
    await assert.rejects(importFile(WEATHER), (error) => {
      assert.ok(error instanceof ImportError);
      assert.equal(error.usage, true);
      assert.equal(error.message, "the document names no server; pass --base-url URL");
      return true;
    });
  });

  it("keeps 3.1's JSON Schema as it is, merges an allOf body, and turns an API key into a header", async () => {
    const { declarations, warnings } = await importFile(WEATHER, { baseUrl: "https://weather.example" });
    const forecast = bySlug(declarations, "get-forecast");
    assert.equal(forecast.version, "1.0.0", "a date is not a semantic version");
    assert.deepEqual(forecast.inputSchema.properties, {
      city: { type: "string", minLength: 1 },
      days: { type: "integer", minimum: 1, maximum: 14, default: 3 },
      units: { type: ["string", "null"], enum: ["metric", "imperial", null] },
    });
    assert.deepEqual(forecast.headers, { "X-Api-Key": "${API_KEY}" });
    assert.deepEqual(forecast.outputSchema?.examples, [{ city: "Oslo", days: [] }]);
    const alert = bySlug(declarations, "create-alert");
    assert.deepEqual(alert.inputSchema, {
      type: "object",
      additionalProperties: false,
      required: ["city", "threshold"],
      properties: {
        city: { type: "string" },
        email: { type: "string" },
        threshold: { type: "number", exclusiveMinimum: 0 },
        kind: { const: "wind" },
      },
    });
    assert.equal(alert.outputSchema, undefined);
    assert.deepEqual(warnings, [
      "set the environment variable API_KEY to the API key of security scheme ApiKey",
    ]);
  });

  it("makes a tool that calls the upstream as the document describes", async () => {
    const { declarations } = await importFile(WEATHER, {
      baseUrl: `${server.origin}/echo`,
      operations: ["getForecast"],
    });
    const [forecast] = await loadTools({
      builtIns: [],
      httpTools: { declarations, configPath: "imported.json" },
      env: { API_KEY: "weather-key" },
      cwd: ".",
      upstream: createHttpUpstream(),
    });
    assert.ok(forecast);
    const answer = await runToolCall(forecast, { city: "Zürich", days: 3 }, { requestId: "r" });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(answer.value.url, "/echo/forecast/Z%C3%BCrich?days=3");
    assert.equal((answer.value.headers as Record<string, string>)["x-api-key"], "weather-key");
  });

  it("refuses what is not OpenAPI 3.0 or 3.1", async () => {
    await assert.rejects(
      importFile(fixture("swagger-2.0.json")),
      /only OpenAPI 3.0 and 3.1 documents can be imported; this one is 2.0/,
    );
  });
});

describe("convertSchema", () => {
  it("keeps the formats the service checks and leaves out, once, one it does not", () => {
    const once = new Set<string>();
    const converted = convertSchema(
      {
        type: "object",
        properties: {
          since: { type: "string", format: "date" },
          phone: { type: "string", format: "phone" },
          fax: { type: "string", format: "phone" },
        },
      },
      "3.1",
      once,
      "request body",
    );
    assert.deepEqual(converted, {
      schema: {
        type: "object",
        properties: {
          since: { type: "string", format: "date" },
          phone: { type: "string" },
          fax: { type: "string" },
        },
      },
    });
    assert.deepEqual(
      [...once],
      ['format "phone" is left out wherever it appears (the service does not check it)'],
    );
  });
});

describe("importing a billing API shaped like the public ones", () => {
  let server: TestUpstream;
  before(async () => {
    server = await startUpstream();
  });
  after(() => server.close());
  /** The imported tools; against the echo, without the answer's schema (the echo answers the request). */
  const load = async (baseUrl: string, operations: string[], echo = false) =>
    loadTools({
      builtIns: [],
      httpTools: {
        declarations: (await importFile(BILLING, { baseUrl, operations })).declarations.map(
          ({ outputSchema, ...declaration }) => (echo ? declaration : { ...declaration, outputSchema }),
        ),
        configPath: "imported.json",
      },
      env: { SECRET_API_KEY: "billing-key" },
      cwd: ".",
      upstream: createHttpUpstream(),
    });

  it("imports every operation: list endpoints, update-by-id, header parameters; GETs are lookups", async () => {
    const { declarations, warnings, skipped } = await importFile(BILLING);
    assert.deepEqual(
      declarations.map((d) => [d.slug, d.method, d.url]),
      [
        ["get-customer-collection", "GET", "https://api.billing.example/v1/customers"],
        ["post-customer", "POST", "https://api.billing.example/v1/customers"],
        ["get-customer", "GET", "https://api.billing.example/v1/customers/{id}"],
        ["put-plan", "PUT", "https://api.billing.example/v1/plans/{id}"],
      ],
    );
    assert.deepEqual(skipped, []);
    assert.ok(!warnings.some((w) => /left out:/.test(w)), warnings.join("\n"));
    const loaded = await load("https://api.billing.example/v1", []);
    assert.deepEqual(
      loaded.map((tool) => [tool.definition.slug, tool.definition.effects]),
      [
        ["get-customer-collection", "none"],
        ["post-customer", "external"],
        ["get-customer", "none"],
        ["put-plan", "external"],
      ],
    );
  });

  it("leaves what only the server writes out of the inputs, however deep", async () => {
    const { declarations } = await importFile(BILLING);
    const create = bySlug(declarations, "post-customer");
    assert.deepEqual(create.inputSchema.required, ["organizationId", "email"]);
    const members = create.inputSchema.properties as Record<string, { properties?: object }>;
    assert.deepEqual(Object.keys(members), ["organizationId", "email", "primaryAddress"]);
    assert.deepEqual(Object.keys(members.primaryAddress?.properties ?? {}), ["line1", "city", "country"]);
    // The answer keeps them: the server does write them.
    assert.ok(Object.hasOwn(create.outputSchema?.properties as object, "createdTime"));
  });

  it("sends a header parameter from its input member, the path's id and the body's as one", async () => {
    const [put] = await load(`${server.origin}/echo`, ["PutPlan"], true);
    assert.ok(put);
    const { inputSchema } = put.definition;
    assert.deepEqual(inputSchema.required, ["organizationId", "id", "name"]);
    const answer = await runToolCall(
      put,
      { organizationId: "org-9", id: "gold", name: "Gold", currency: "EUR" },
      { requestId: "r" },
    );
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(answer.value.url, "/echo/plans/gold");
    assert.deepEqual(answer.value.body, { id: "gold", name: "Gold", currency: "EUR" });
    const headers = answer.value.headers as Record<string, string>;
    assert.equal(headers["organization-id"], "org-9");
    assert.equal(headers["reb-apikey"], "billing-key");
  });

  it("answers a list endpoint's array as {items}", async () => {
    const [list] = await load(`${server.origin}/billing`, ["GetCustomerCollection"]);
    assert.ok(list);
    const answer = await runToolCall(list, { organizationId: "org-9", limit: 2 }, { requestId: "r" });
    assert.ok(answer.ok, JSON.stringify(answer));
    const { items } = answer.value as { items: { id: string; organization?: string }[] };
    assert.deepEqual(
      items.map((c) => c.id),
      ["cus_1", "cus_2"],
    );
    assert.equal(items[1]?.organization, "org-9");
  });
});

describe("kebabCase", () => {
  it("splits camel case, acronyms, digits and separators", () => {
    for (const [id, slug] of [
      ["getUserById", "get-user-by-id"],
      ["getUserByID", "get-user-by-id"],
      ["HTTPResponseCode", "http-response-code"],
      ["list_items.v2", "list-items-v2"],
      ["v2Users", "v2-users"],
      ["create--thing", "create-thing"],
      ["Tickets_Create", "tickets-create"],
    ])
      assert.equal(kebabCase(id ?? ""), slug);
  });
});
