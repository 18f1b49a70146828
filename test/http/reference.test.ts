/**
 * `/docs`: the API reference rendered from /openapi.json by Swagger UI served from this process, so
 * the page loads nothing from another origin, under a Content-Security-Policy that says so too; and
 * the error pages, in the site's look, linked to the reference and to each other.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { errorCatalog } from "../../src/core/kernel/errors.ts";
import { createTestApp, DOCS_URL, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

/** The style sheets a page links, in order. */
const styles = (page: string) =>
  [...page.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);

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
      assert.match(
        String(asset.headers["content-type"]),
        /^(text\/(css|javascript)|image\/(png|svg\+xml))/,
        url,
      );
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

  it("wears the site's look over Swagger UI's: its frame, fonts and colours, in this order", async () => {
    const page = (await t.app.inject({ method: "GET", url: "/docs" })).body;
    assert.deepEqual(styles(page), [
      "/docs/assets/swagger-ui.css",
      "/console/site.css",
      "/console/reference.css",
    ]);
    assert.match(page, /<title>API reference · toolrun<\/title>/);
    assert.match(page, /<a href="[^"]*\/docs" aria-current="page">API reference<\/a>/);
    const look = await t.app.inject({ method: "GET", url: "/console/reference.css" });
    assert.match(look.body, /font-family: var\(--font\)/);
  });

  it("serves no file of the package it was not asked to serve", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/assets/package.json" });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, "not_found");
  });
});

describe("the error pages", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp({}, suite);
  });
  const get = async (url: string) => {
    const res = await t.app.inject({ method: "GET", url });
    assert.equal(res.statusCode, 200, url);
    assert.match(String(res.headers["content-type"]), /^text\/html/, url);
    assert.match(String(res.headers["content-security-policy"]), /default-src 'none'/, url);
    return res.body;
  };

  it("list every code, linked to its page, in the site's look", async () => {
    const page = await get("/docs/errors");
    assert.deepEqual(styles(page), ["/console/site.css", "/console/console.css"]);
    for (const [code, spec] of Object.entries(errorCatalog)) {
      assert.match(
        page,
        new RegExp(
          `<td>${spec.status}</td><td><a href="${DOCS_URL}/errors/${code}"><code>${code}</code></a>`,
        ),
      );
    }
    assert.ok(page.includes(`<a href="${DOCS_URL}">API reference</a>`));
  });

  it("give each code its status, title and explanation, linked to the list, to the reference and to the other codes", async () => {
    for (const [code, spec] of Object.entries(errorCatalog)) {
      const page = await get(`/docs/errors/${code}`);
      assert.deepEqual(styles(page), ["/console/site.css", "/console/console.css"]);
      assert.match(page, new RegExp(`<h1><code>${code}</code></h1>`));
      assert.ok(page.includes(`<strong>HTTP ${spec.status}</strong>`), code);
      assert.ok(page.includes(`<a href="${DOCS_URL}/errors">Error codes</a>`), code);
      assert.ok(page.includes(`<a href="${DOCS_URL}">API reference</a>`), code);
      for (const other of Object.keys(errorCatalog))
        assert.ok(page.includes(`${DOCS_URL}/errors/${other}"`), `${code} -> ${other}`);
      assert.match(page, new RegExp(`href="${DOCS_URL}/errors/${code}" aria-current="page"`));
    }
  });

  it("show the explanation's code spans as code, escaped", async () => {
    const page = await get("/docs/errors/invalid_api_key");
    assert.ok(page.includes("<code>Authorization: Bearer &#60;API_KEY&#62;</code>"), page);
    assert.doesNotMatch(page, /`/);
  });
});
