// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * HTTP tools declared as data, against a real upstream on loopback: what a declaration must be,
 * what request each call makes, and the answer each upstream behaviour ends in, none of which
 * repeats the upstream's body or a header value.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { compileInputValidator } from "../../src/core/kernel/validation.ts";
import type { CheckedTool } from "../../src/core/tools/check-definition.ts";
import {
  bindHttpTool,
  checkHttpTool,
  type HttpToolDeclaration,
  resolveHeaders,
} from "../../src/core/tools/http-tool.ts";
import { loadTools } from "../../src/core/tools/loader.ts";
import { CLIENT_GONE_STATUS, runToolCall, type ToolRunResult } from "../../src/core/tools/run.ts";
import { ToolFailure } from "../../src/core/tools/tool-failure.ts";
import { isUnprocessableInputError } from "../../src/tools/tool.ts";
import {
  refusingOrigin,
  startUpstream,
  type TestUpstream,
  UPSTREAM_BODY_SECRET,
} from "../helpers/upstream.ts";

const TOKEN = "s3cret-token-value";

function declaration(
  change: Partial<Record<keyof HttpToolDeclaration | string, unknown>> = {},
): Record<string, unknown> {
  return {
    slug: "item-lookup",
    name: "Item lookup",
    description: "Looks an item up.",
    version: "1.0.0",
    weight: 2,
    inputSchema: {
      type: "object",
      required: ["id"],
      properties: { id: { type: "string", minLength: 1 }, q: { type: "string" }, n: { type: "integer" } },
    },
    url: "https://api.example.com/items/{id}",
    method: "GET",
    headers: { authorization: "Bearer ${UPSTREAM_TOKEN}" },
    ...change,
  };
}

function problemsOf(raw: unknown): string[] {
  const check = checkHttpTool(raw);
  assert.equal(check.ok, false, "the declaration should have been refused");
  return check.ok ? [] : check.problems;
}

describe("HTTP tool declarations", () => {
  it("accept the documented members, with defaults of 30 s, 1 MiB answers and a 64 KiB body", () => {
    const check = checkHttpTool(declaration());
    assert.ok(check.ok, check.ok ? "" : check.problems.join("; "));
    const { definition } = check.checked.tool;
    assert.equal(definition.effects, "none", "a GET changes nothing upstream");
    assert.deepEqual(definition.annotations, { openWorldHint: true });
    assert.deepEqual(definition.examples, []);
    assert.equal(definition.timeoutMs, 30_000);
    assert.deepEqual(definition.defaults, { weight: 2, maxBodyBytes: 65_536 });
    assert.deepEqual(definition.keywords, []);
    assert.deepEqual(definition.outputSchema, { type: "object" });
    // Nothing of the request's shape is published: no URL, no header.
    assert.doesNotMatch(JSON.stringify(definition), /api\.example\.com|UPSTREAM_TOKEN|authorization/);
  });

  it("have effects outside unless they GET, or say otherwise; carry annotations and examples checked like a module's", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const check = checkHttpTool(declaration({ method }));
      assert.ok(check.ok);
      assert.equal(check.checked.tool.definition.effects, "external", method);
    }
    const told = checkHttpTool(
      declaration({
        method: "POST",
        effects: "none",
        annotations: { idempotentHint: true, openWorldHint: false },
        examples: [{ title: "Item 7", input: { id: "7" } }],
      }),
    );
    assert.ok(told.ok, told.ok ? "" : told.problems.join("; "));
    const { definition } = told.checked.tool;
    assert.equal(definition.effects, "none");
    assert.deepEqual(definition.annotations, { openWorldHint: false, idempotentHint: true });
    assert.deepEqual(definition.examples, [{ title: "Item 7", input: { id: "7" } }]);
    assert.deepEqual(
      problemsOf(
        declaration({
          method: "DELETE",
          effects: "sometimes",
          annotations: { readOnlyHint: true, cheap: true },
          examples: [{ title: "Bad", input: { id: 7 } }],
        }),
      ),
      [
        'effects must be "none" or "external"',
        'annotations has an unknown member "cheap" (expected readOnlyHint, destructiveHint, idempotentHint, openWorldHint)',
        'examples[0] ("Bad") does not match inputSchema: id must be a string',
      ],
    );
    assert.deepEqual(problemsOf(declaration({ method: "DELETE", annotations: { readOnlyHint: true } })), [
      'annotations.readOnlyHint cannot be true for a tool whose effects are "external"',
    ]);
  });

  it("name every problem at once", () => {
    const problems = problemsOf(
      declaration({
        slug: "Bad Slug",
        method: "HEAD",
        weight: -1,
        timeoutMs: 0,
        maxResponseBytes: 200 * 1024 * 1024,
        retries: 3,
        inputSchema: { type: "object", properties: { id: { type: "strin" } } },
      }),
    );
    for (const pattern of [
      /^unknown member "retries"/,
      /^weight must be an integer from 0/,
      /^timeoutMs must be an integer from 1 to 300000$/,
      /^maxResponseBytes must be an integer from 1 to 104857600$/,
      /^method must be one of GET, POST, PUT, PATCH, DELETE$/,
      /^url has \{id\}, which inputSchema must list as required$/,
      /^url has \{id\}, whose "type" must be string, number, integer or boolean$/,
      /^slug must be lowercase letters/,
      /^inputSchema is not a valid JSON Schema 2020-12/,
    ])
      assert.ok(
        problems.some((problem) => pattern.test(problem)),
        `no problem matches ${pattern}: ${problems.join(" | ")}`,
      );
  });

  it("need every {field} of the URL declared, required, and a string, number or boolean", () => {
    assert.deepEqual(problemsOf(declaration({ url: "https://api.example.com/items/{other}" })), [
      "url has {other}, which inputSchema.properties does not declare",
    ]);
    assert.deepEqual(
      problemsOf(
        declaration({
          url: "https://api.example.com/items/{id}",
          inputSchema: { type: "object", required: ["id"], properties: { id: { type: "object" } } },
        }),
      ),
      ['url has {id}, whose "type" must be string, number, integer or boolean'],
    );
    assert.deepEqual(problemsOf(declaration({ url: "https://{id}.example.com/items" })), [
      "url must be an http:// or https:// URL with a fixed host, then a path and query that may hold {field}, and no #fragment",
    ]);
  });

  it("refuse headers toolrun sets, bad names, line breaks and bad references, never quoting a value", () => {
    const problems = problemsOf(
      declaration({
        headers: {
          Host: "evil.example",
          "Idempotency-Key": "fixed",
          "bad name": "x",
          "x-crlf": "a\r\nInjected: literal-secret",
          "x-ref": "${lower-case}",
          "x-open": "${OPEN",
        },
      }),
    );
    assert.deepEqual(problems, [
      "headers.Host is set by toolrun or the HTTP client and cannot be configured",
      "headers.Idempotency-Key is set by toolrun or the HTTP client and cannot be configured",
      'headers has "bad name", which is not a header name',
      "headers.x-crlf holds a line break or NUL",
      "headers.x-ref ${lower-case} is not a variable reference (write ${NAME}, NAME letters, digits and _)",
      "headers.x-open has a ${ without its closing }",
    ]);
    assert.doesNotMatch(problems.join("\n"), /literal-secret|evil\.example|fixed/);
  });

  it("read header variables from the environment, naming a missing one and never a value", () => {
    const check = checkHttpTool(
      declaration({ headers: { authorization: "Bearer ${UPSTREAM_TOKEN}", "x-a": "${A}${B}" } }),
    );
    assert.ok(check.ok);
    assert.deepEqual(resolveHeaders(check.checked.declaration, { UPSTREAM_TOKEN: "t", A: "1", B: "2" }), {
      headers: { authorization: "Bearer t", "x-a": "12" },
    });
    assert.deepEqual(resolveHeaders(check.checked.declaration, { A: "1" }), {
      problems: [
        "headers.authorization needs the environment variable UPSTREAM_TOKEN, which is not set",
        "headers.x-a needs the environment variable B, which is not set",
      ],
    });
    const crlf = resolveHeaders(check.checked.declaration, {
      UPSTREAM_TOKEN: "t\r\nX: secret-value",
      A: "",
      B: "",
    });
    assert.deepEqual(crlf, {
      problems: [
        "headers.authorization: a variable it reads holds a line break or NUL, which no header may hold",
      ],
    });
  });

  it("refuse . and .. for a path field at validation, so the call is a 400 naming the field", () => {
    const check = checkHttpTool(declaration());
    assert.ok(check.ok);
    const validate = compileInputValidator(check.checked.tool.definition.inputSchema);
    for (const id of [".", ".."]) {
      const result = validate({ id });
      assert.ok(!result.ok);
      assert.ok(
        typeof result.fields === "object" && Object.hasOwn(result.fields, "id"),
        JSON.stringify(result),
      );
    }
    for (const id of ["...", "../x", "%2e%2e", ".x"]) assert.ok(validate({ id }).ok, id);
    // Nor may a value make an empty segment (`/items//`), whatever the operator's schema allows.
    const lax = checkHttpTool(declaration({ inputSchema: schemaWith(["id"]) }));
    assert.ok(lax.ok);
    const empty = compileInputValidator(lax.checked.tool.definition.inputSchema)({ id: "" });
    assert.ok(!empty.ok && typeof empty.fields === "object" && Object.hasOwn(empty.fields, "id"));
    // A query field's dots are only text.
    const query = checkHttpTool(declaration({ url: "https://api.example.com/items?id={id}" }));
    assert.ok(query.ok);
    assert.ok(compileInputValidator(query.checked.tool.definition.inputSchema)({ id: ".." }).ok);
  });
});

describe("HTTP tool input", () => {
  it("refuses members the schema does not declare with a 400 naming them, unless the schema lets them in", () => {
    const check = checkHttpTool(declaration());
    assert.ok(check.ok);
    const result = compileInputValidator(check.checked.tool.definition.inputSchema)({
      id: "7",
      mode: "unsafe",
    });
    assert.deepEqual(result, { ok: false, fields: { mode: "is not a known field" } });
    const open = checkHttpTool(
      declaration({ inputSchema: { ...schemaWith(["id"]), additionalProperties: true } }),
    );
    assert.ok(open.ok);
    assert.ok(compileInputValidator(open.checked.tool.definition.inputSchema)({ id: "7", mode: "x" }).ok);
  });

  it("sends input members as headers only when declared, scalar and free of line breaks (a 400 naming them)", () => {
    const check = checkHttpTool(declaration({ headerFields: { "Organization-Id": "q" } }));
    assert.ok(check.ok, check.ok ? "" : check.problems.join("; "));
    const validate = compileInputValidator(check.checked.tool.definition.inputSchema);
    assert.ok(validate({ id: "7", q: "org-9" }).ok);
    const crlf = validate({ id: "7", q: "org\r\nX-Injected: 1" });
    assert.ok(!crlf.ok && typeof crlf.fields === "object" && Object.hasOwn(crlf.fields, "q"));
    assert.deepEqual(
      problemsOf(
        declaration({
          headerFields: { Authorization: "q", "X-Id": "id", "X-Missing": "nope", "bad name": "n" },
        }),
      ),
      [
        "headerFields.Authorization cannot come from input",
        "headerFields.X-Id names id, which the url uses",
        "headerFields.X-Missing must name a member inputSchema.properties declares",
        'headerFields has "bad name", which is not a header name',
      ],
    );
  });

  it("refuses at start-up a declared member the URL's query already fixes, which would go out twice", () => {
    const check = checkHttpTool(declaration({ url: "https://api.example.com/items/{id}?q=fixed" }));
    assert.deepEqual(check.ok ? [] : check.problems, [
      "url fixes the query parameter q, which inputSchema also declares: a call would send it twice; write q={q} in the url, or leave the member out",
    ]);
    // A POST sends its members in the body, beside the fixed query.
    assert.ok(
      checkHttpTool(declaration({ method: "POST", url: "https://api.example.com/items/{id}?q=fixed" })).ok,
    );
  });

  it("refuses at start-up a url whose origin URL parsers read differently, naming the tool", async () => {
    await assert.rejects(
      loadTools({
        builtIns: [],
        httpTools: {
          declarations: [declaration({ url: "https://evil.example\\@api.good.example/items/{id}" })],
          configPath: "toolrun.json",
        },
        env: { UPSTREAM_TOKEN: TOKEN },
        cwd: process.cwd(),
        upstream: createHttpUpstream(),
      }),
      (error: Error) => {
        assert.match(
          error.message,
          /httpTools\[0\] \("item-lookup"\): url has an origin URL parsers read differently/,
        );
        return true;
      },
    );
  });
});

describe("HTTP tools against a real upstream", () => {
  let server: TestUpstream;
  const upstream = createHttpUpstream();
  before(async () => {
    server = await startUpstream();
  });
  after(() => server.close());

  function tool(change: Record<string, unknown>): CheckedTool {
    const check = checkHttpTool(declaration(change));
    assert.ok(check.ok, check.ok ? "" : check.problems.join("; "));
    const headers = resolveHeaders(check.checked.declaration, { UPSTREAM_TOKEN: TOKEN });
    assert.ok("headers" in headers);
    return bindHttpTool(check.checked, headers.headers, upstream);
  }
  const call = (t: CheckedTool, input: Record<string, unknown>, idempotencyKey?: string) =>
    runToolCall(t, input, { requestId: "req_1", idempotencyKey });
  /** The refunded answer a call ended with: its status and the detail the client would read. */
  async function failure(result: ToolRunResult | Promise<ToolRunResult>): Promise<[number, string]> {
    const ended = await result;
    assert.ok(!ended.ok, `expected a failure, got ${JSON.stringify(ended)}`);
    const { error } = ended;
    assert.ok(error instanceof ToolFailure || isUnprocessableInputError(error), String(error));
    assert.doesNotMatch(error.message, new RegExp(`${TOKEN}|${UPSTREAM_BODY_SECRET}|127\\.0\\.0\\.1`));
    return [ended.httpStatus, error.message];
  }

  it("GET fills the path and query templates and sends the other fields as query parameters", async () => {
    const t = tool({
      url: `${server.origin}/echo/items/{id}?q={q}&fixed=1`,
      inputSchema: schemaWith(["id", "q"]),
    });
    const result = await call(t, { id: "a b/c", q: "x&y=z", n: 3, tags: ["p", "q"] });
    assert.ok(result.ok);
    assert.equal(result.value.method, "GET");
    assert.equal(result.value.url, "/echo/items/a%20b%2Fc?q=x%26y%3Dz&fixed=1&n=3&tags=p&tags=q");
    assert.equal(result.value.body, null);
    const headers = result.value.headers as Record<string, string>;
    assert.equal(headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(headers["idempotency-key"], undefined);
  });

  it("never forwards a member the schema does not declare, even one the schema lets in", async () => {
    const open = { ...schemaWith(["id"]), additionalProperties: true };
    const got = await call(tool({ url: `${server.origin}/echo/items/{id}?mode=safe`, inputSchema: open }), {
      id: "7",
      mode: "unsafe",
    });
    assert.ok(got.ok);
    assert.equal(got.value.url, "/echo/items/7?mode=safe");
    const posted = await call(tool({ method: "POST", url: `${server.origin}/echo`, inputSchema: open }), {
      id: "7",
      admin: true,
    });
    assert.ok(posted.ok);
    assert.deepEqual(posted.value.body, { id: "7" });
  });

  it("POST, PUT and PATCH send the whole validated input as the JSON body; DELETE sends none", async () => {
    for (const method of ["POST", "PUT", "PATCH"]) {
      const result = await call(tool({ method, url: `${server.origin}/echo/items/{id}` }), { id: "7", n: 1 });
      assert.ok(result.ok);
      assert.equal(result.value.method, method);
      assert.equal(result.value.url, "/echo/items/7");
      assert.deepEqual(result.value.body, { id: "7", n: 1 });
      assert.equal((result.value.headers as Record<string, string>)["content-type"], "application/json");
    }
    const deleted = await call(tool({ method: "DELETE", url: `${server.origin}/echo/items/{id}` }), {
      id: "7",
      n: 1,
    });
    assert.ok(deleted.ok);
    assert.equal(deleted.value.url, "/echo/items/7?n=1");
    assert.equal(deleted.value.body, null);
  });

  it("keeps hostile values inside the one path segment or query value they fill, on the wire", async () => {
    const t = tool({
      url: `${server.origin}/echo/items/{id}/detail?q={q}`,
      inputSchema: schemaWith(["id", "q"]),
    });
    for (const value of [
      "../../admin",
      "..%2F..%2Fadmin",
      "%2e%2e",
      "?admin=1",
      "#top",
      "@evil.example",
      "a\r\nX-Injected: 1",
      "x/../../y",
    ]) {
      const result = await call(t, { id: value, q: value });
      assert.ok(result.ok, value);
      const received = new URL(result.value.url as string, "http://upstream.test");
      const segments = received.pathname.split("/");
      assert.deepEqual(segments.slice(0, 3), ["", "echo", "items"], value);
      assert.equal(segments.length, 5, `${value} -> ${received.pathname}`);
      assert.equal(decodeURIComponent(segments[3] ?? ""), value);
      assert.equal(segments[4], "detail");
      assert.deepEqual([...received.searchParams.keys()], ["q"]);
      assert.equal(received.searchParams.get("q"), value);
      assert.equal((result.value.headers as Record<string, string>)["x-injected"], undefined);
    }
  });

  it("sends the call's idempotency key as the Idempotency-Key header", async () => {
    const t = tool({ method: "POST", url: `${server.origin}/idempotent`, inputSchema: { type: "object" } });
    for (const key of ["key-a", "key-a", "key-b"]) {
      const result = await call(t, {}, key);
      assert.ok(result.ok);
      assert.equal(result.value.key, key);
    }
    assert.equal(server.callsFor("key-a"), 2);
    assert.equal(server.callsFor("key-b"), 1);
  });

  it("answers the upstream's JSON object as the outputs, and checks it against outputSchema", async () => {
    const t = tool({
      url: `${server.origin}/slow/{id}`,
      inputSchema: { type: "object", required: ["id"], properties: { id: { type: "integer" } } },
      outputSchema: { type: "object", required: ["slept"], properties: { slept: { type: "integer" } } },
    });
    assert.deepEqual(await call(t, { id: 1 }), { ok: true, value: { slept: 1 } });
    const strict = tool({
      url: `${server.origin}/echo`,
      inputSchema: { type: "object" },
      outputSchema: { type: "object", required: ["missing"], properties: { missing: { type: "string" } } },
    });
    assert.deepEqual(await failure(call(strict, {})), [
      500,
      "The tool's answer does not match its output schema.",
    ]);
  });

  it("turns an upstream 4xx into 422 naming the status and nothing of its body, however long", async () => {
    for (const status of [400, 404, 409, 429]) {
      for (const maxResponseBytes of [65_536, 10]) {
        const t = tool({
          url: `${server.origin}/status/${status}`,
          inputSchema: { type: "object" },
          maxResponseBytes,
        });
        assert.deepEqual(await failure(call(t, {})), [
          422,
          `The upstream service refused the input with HTTP ${status}.`,
        ]);
      }
    }
  });

  it("answers a success without a body as empty outputs, and reads JSON behind a byte order mark", async () => {
    assert.deepEqual(
      await call(tool({ url: `${server.origin}/empty`, inputSchema: { type: "object" } }), {}),
      {
        ok: true,
        value: {},
      },
    );
    assert.deepEqual(await call(tool({ url: `${server.origin}/bom`, inputSchema: { type: "object" } }), {}), {
      ok: true,
      value: { bom: true },
    });
  });

  it("turns every other upstream failure into 500 saying what the upstream did", async () => {
    const cases: [string, string][] = [
      ["/status/500", "The upstream service failed with HTTP 500."],
      ["/status/503", "The upstream service failed with HTTP 503."],
      ["/reset", "The upstream service closed the connection without a complete answer."],
      ["/reset-mid-body", "The upstream service closed the connection without a complete answer."],
      ["/text", "The upstream service answered HTTP 200 with a body that is not JSON."],
      ["/array", "The upstream service answered HTTP 200 with JSON that is not an object."],
      ["/huge", "The upstream service answered HTTP 200 with a body larger than 65536 bytes."],
      ["/redirect", "The upstream service answered HTTP 302, a redirect, which is not followed."],
    ];
    const echoes = () => server.requests.filter((r) => r.url === "/echo").length;
    const echoesBefore = echoes();
    for (const [path, detail] of cases) {
      const t = tool({
        url: `${server.origin}${path}`,
        inputSchema: { type: "object" },
        maxResponseBytes: 65_536,
      });
      assert.deepEqual(await failure(call(t, {})), [500, detail], path);
    }
    assert.equal(echoes(), echoesBefore, "a redirect was followed");
    const refused = tool({ url: `${await refusingOrigin()}/x`, inputSchema: { type: "object" } });
    assert.deepEqual(await failure(call(refused, {})), [500, "The upstream service refused the connection."]);
  });

  it("ends a call whose upstream is slower than its timeout, saying so", async () => {
    const t = tool({ url: `${server.origin}/slow/5000`, inputSchema: { type: "object" }, timeoutMs: 100 });
    assert.deepEqual(await failure(call(t, {})), [500, "The upstream service did not answer within 100 ms."]);
  });

  it("reads an answer that came while the event loop was held past the timeout, instead of timing out", async () => {
    const t = tool({
      url: `${server.origin}/echo`,
      method: "POST",
      inputSchema: { type: "object" },
      timeoutMs: 1000,
    });
    const held = server.hold();
    const pending = runToolCall(t, {}, { requestId: "r" });
    await held.held(1);
    held.release();
    // The upstream writes its answer in this turn; then the loop is held past the timeout, so the
    // timers are due before the answer, already in the socket, is read.
    await new Promise((resolve) => setImmediate(resolve));
    const end = performance.now() + 1500;
    while (performance.now() < end) {
      // Holding the loop, as a tool that computes too long would.
    }
    const ended = await pending;
    assert.ok(ended.ok, JSON.stringify(ended));
  });

  it("stops the upstream request of a tool without effects outside when the client goes away", async () => {
    const t = tool({ url: `${server.origin}/slow/5000`, inputSchema: { type: "object" } });
    const clientGone = new AbortController();
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    // Earlier tests' requests have ended, so only this one's end is counted.
    while (server.inFlight() > 0) await tick();
    const abandoned = server.abandoned();
    const pending = runToolCall(t, {}, { requestId: "r", clientGone: () => clientGone.signal });
    while (server.inFlight() === 0) await tick();
    clientGone.abort();
    const [status] = await failure(pending);
    assert.equal(status, CLIENT_GONE_STATUS);
    // The upstream sees its request's connection close before it has answered.
    while (server.inFlight() > 0) await tick();
    assert.equal(server.abandoned(), abandoned + 1);
  });

  it("lets the upstream request of a tool with effects outside run to its answer when the client goes away", async () => {
    const t = tool({ url: `${server.origin}/echo`, method: "POST", inputSchema: { type: "object" } });
    assert.equal(t.definition.effects, "external");
    const clientGone = new AbortController();
    const abandoned = server.abandoned();
    const held = server.hold();
    const pending = runToolCall(t, {}, { requestId: "r", clientGone: () => clientGone.signal });
    await held.held(1);
    clientGone.abort();
    held.release();
    const ended = await pending;
    assert.ok(ended.ok, JSON.stringify(ended));
    assert.equal(ended.value.method, "POST");
    assert.equal(server.abandoned(), abandoned);
  });
});

function schemaWith(required: string[]): Record<string, unknown> {
  return {
    type: "object",
    required,
    properties: {
      id: { type: "string" },
      q: { type: "string" },
      n: { type: "integer" },
      tags: { type: "array", items: { type: "string" } },
    },
  };
}
