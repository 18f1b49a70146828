/**
 * An address that leads nowhere: a browser opening it (its Accept prefers text/html) gets the
 * console's 404 page; curl, an API client or anything asking for JSON gets the `not_found` problem
 * document; the API's own paths answer the problem whatever the Accept header says.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createTestApp, DOCS_URL, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { collectLog } from "../helpers/log-lines.ts";

/** What Chromium and Firefox send when a person opens an address. */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** Unknown addresses outside the API, each missed by a different part of the router. */
const UNKNOWN_PAGES = [
  "/acount",
  "/tools",
  "/tools/x",
  "/docs/errors/nope",
  "/docs/nope",
  "/console/nope.js",
  "/docs/assets/nope.css",
  "/a/b/c?x=1",
];

/** Unknown addresses under the API's paths. */
const UNKNOWN_API = [
  "/v1",
  "/v1/nope",
  "/v1/tools/nope",
  "/admin/v1/nope",
  "/mcp/nope",
  "/oauth/nope",
  "/openapi.json/nope",
  "/.well-known/nope",
];

describe("an address that leads nowhere", () => {
  let t: TestApp;
  const log = collectLog();
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp({ ...log.options }, suite);
  });
  const get = (url: string, accept?: string, method: "GET" | "HEAD" | "POST" = "GET") =>
    t.app.inject({ method, url, headers: accept === undefined ? {} : { accept } });

  function assertProblem(response: Awaited<ReturnType<typeof get>>, what: string): void {
    assert.equal(response.statusCode, 404, what);
    assert.match(String(response.headers["content-type"]), /^application\/problem\+json/, what);
    const problem = response.json();
    assert.equal(problem.code, "not_found", what);
    assert.equal(problem.status, 404, what);
  }

  it("is the 404 page to a browser, under the console's CSP, with links to the tools and the API reference", async () => {
    for (const url of UNKNOWN_PAGES) {
      const response = await get(url, BROWSER);
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers["content-type"]), /^text\/html; charset=utf-8/, url);
      assert.match(
        String(response.headers["content-security-policy"]),
        /^default-src 'none'; script-src 'self'/,
      );
      assert.equal(response.headers["cache-control"], "no-store", url);
      assert.match(String(response.headers["x-request-id"]), /^req_/, url);
      assert.match(response.body, /<h1>Page not found<\/h1>/, url);
      assert.match(response.body, /There is no page at this address\./, url);
      assert.match(response.body, /<a href="\/">The tools<\/a>/, url);
      assert.ok(response.body.includes(`<a href="${DOCS_URL}">The API reference</a>`), url);
    }
  });

  it("is the not_found problem to curl, to a program asking for JSON, and to a request with no Accept", async () => {
    for (const url of UNKNOWN_PAGES) {
      for (const accept of [
        undefined,
        "*/*",
        "application/json",
        "application/problem+json",
        "application/problem+json, text/html;q=0.5",
        "text/css,*/*;q=0.1",
      ]) {
        assertProblem(await get(url, accept), `${url} with Accept ${accept}`);
      }
    }
  });

  it("is always the problem under the API's paths, even to a browser", async () => {
    for (const url of UNKNOWN_API) assertProblem(await get(url, BROWSER), url);
  });

  it("is the page's head to a browser's HEAD, and the problem to any other method", async () => {
    const head = await get("/acount", BROWSER, "HEAD");
    assert.equal(head.statusCode, 404);
    assert.match(String(head.headers["content-type"]), /^text\/html/);
    assert.equal(head.body, "");
    assertProblem(await get("/acount", BROWSER, "POST"), "POST /acount");
  });

  it("is logged with the code not_found, as page or as problem", async () => {
    log.lines.length = 0;
    const page = await get("/acount", BROWSER);
    const problem = await get("/acount", "*/*");
    await log.lineWhere((line) => line.reqId === problem.headers["x-request-id"] && line.res !== undefined);
    const codes = log
      .requestLines()
      .filter((line) => [page, problem].some((r) => r.headers["x-request-id"] === line.reqId))
      .map((line) => [(line.res as { statusCode: number }).statusCode, line.code]);
    assert.deepEqual(codes, [
      [404, "not_found"],
      [404, "not_found"],
    ]);
  });
});
