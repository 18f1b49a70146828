/**
 * `/docs`: the API reference rendered from /openapi.json by Swagger UI served from this process, so
 * the page loads nothing from another origin, under a Content-Security-Policy that says so too.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createTestApp, DOCS_URL, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

describe("GET /docs", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp({}, suite);
  });

  it("loads only local assets, each served here with its type", async () => {
    const page = await t.app.inject({ method: "GET", url: "/docs" });
    assert.equal(page.statusCode, 200);
    const loaded = [
      ...page.body.matchAll(/<script[^>]*\ssrc="([^"]+)"/g),
      ...page.body.matchAll(/<link[^>]*\shref="([^"]+)"/g),
      ...page.body.matchAll(/<img[^>]*\ssrc="([^"]+)"/g),
    ].map((m) => m[1] ?? "");
    assert.ok(loaded.length >= 3, page.body);
    for (const url of loaded) {
      assert.match(url, /^\/[^/]/, `${url} is not a path on this origin`);
      const asset = await t.app.inject({ method: "GET", url });
      assert.equal(asset.statusCode, 200, url);
      assert.match(String(asset.headers["content-type"]), /^(text\/(css|javascript)|image\/png)/, url);
    }
    assert.doesNotMatch(page.body, /<script>|<script [^>]*>[^<]/, "no inline script");
  });

  it("is served under a CSP that allows scripts and connections to this origin only", async () => {
    const page = await t.app.inject({ method: "GET", url: "/docs" });
    const csp = String(page.headers["content-security-policy"]);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
  });

  it("renders /openapi.json with no call to Swagger's online validator, and links the error pages", async () => {
    const script = await t.app.inject({ method: "GET", url: "/docs/assets/reference.js" });
    assert.match(script.body, /url: "\/openapi\.json"/);
    assert.match(script.body, /validatorUrl: null/);
    const page = await t.app.inject({ method: "GET", url: "/docs" });
    assert.ok(page.body.includes(`href="${DOCS_URL}/errors"`));
  });

  it("serves no file of the package it was not asked to serve", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/assets/package.json" });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, "not_found");
  });
});
