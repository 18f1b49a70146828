/**
 * `/docs` and the error pages in real Chromium against a real server: Swagger UI renders every path
 * of /openapi.json (the API only) under the page's Content-Security-Policy, in the console's frame
 * and look, with no warning, no request to another origin, no font downloaded, no console error (a
 * CSP violation is one) and no serious axe-core violation; the error pages are linked from it and
 * to each other.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Locator } from "playwright-core";
import { assertCleanPage, browserMissing, type Console, scrollsSideways, startConsole } from "./harness.ts";

const PHONE = 390;

type Styles = { getComputedStyle(element: unknown): { getPropertyValue(property: string): string } };
const missing = browserMissing();

describe("the API reference in Chromium", { skip: missing ?? false }, () => {
  let c: Console;
  before(async () => {
    c = await startConsole();
  });
  after(() => c?.close());

  it("renders every documented path, and only the API's, from this origin only, with no warning", async () => {
    const w = await c.open("/docs");
    const fonts: string[] = [];
    w.page.on("request", (request) => {
      if (request.resourceType() === "font") fonts.push(request.url());
    });
    const document = (await (await fetch(`${c.origin}/openapi.json`)).json()) as { paths: object };
    await w.page.locator(".opblock").first().waitFor();
    const shown = new Set(
      await w.page
        .locator(".opblock-summary-path")
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-path"))),
    );
    assert.deepEqual([...shown].sort(), Object.keys(document.paths).sort());
    for (const page of ["/", "/tools/{slug}", "/account", "/console/{file}", "/docs/assets/{file}"])
      assert.ok(!shown.has(page), `${page} is listed as API`);
    // Swagger UI's warning about the document's JSON Schema dialect is gone; the dialect is shown.
    assert.equal(await w.page.locator(".error-wrapper").count(), 0);
    assert.match(
      (await w.page.locator(".info__jsonschemadialect").textContent()) ?? "",
      /oas\/3\.1\/dialect\/base/,
    );
    // Opening operations renders their schemas and examples (the tools' own among them): still
    // nothing the policy refuses, nothing a screen reader or keyboard cannot use.
    for (let i = 0; i < 4; i++) await w.page.locator(".opblock-summary-control").nth(i).click();
    await w.page.locator(".responses-table").nth(3).waitFor();
    await w.page.locator(".examples-select-element").first().waitFor();
    assert.deepEqual(fonts, [], "fonts downloaded");
    await assertCleanPage(w);
  });

  it("wears the console's frame and look: its title, header, fonts and colours", async () => {
    const w = await c.open("/docs");
    await w.page.locator(".opblock").first().waitFor();
    assert.equal(await w.page.title(), "API reference · toolrun");
    const nav = w.page.getByRole("navigation", { name: "Main" });
    assert.equal(await nav.getByRole("link", { name: "API reference" }).getAttribute("aria-current"), "page");
    assert.equal(await nav.getByRole("link", { name: "Tools" }).getAttribute("href"), "/");
    const style = (selector: string, property: string) =>
      w.page
        .locator(selector)
        .first()
        .evaluate(
          (el, p) => (globalThis as unknown as Styles).getComputedStyle(el).getPropertyValue(p),
          property,
        );
    const font = await style("body", "font-family");
    for (const selector of [".opblock-tag", ".opblock-summary-description", ".info .title", ".info p"])
      assert.equal(await style(selector, "font-family"), font, selector);
    assert.match(await style(".opblock-summary-path", "font-family"), /monospace/);
    // The methods in the console's blue and green, dark enough for white letters.
    assert.equal(await style(".opblock-get .opblock-summary-method", "background-color"), "rgb(29, 78, 216)");
    assert.equal(
      await style(".opblock-post .opblock-summary-method", "background-color"),
      "rgb(22, 101, 52)",
    );
    assert.equal(await style(".info a", "color"), "rgb(29, 78, 216)");
    await assertCleanPage(w);
  });

  it("fits a phone, and links the error codes, which link back and to each other, in the same look", async () => {
    const w = await c.open("/docs", { width: PHONE });
    // The links name the service's public address; the test's server listens elsewhere.
    const follow = async (link: Locator, path: RegExp) => {
      const href = (await link.getAttribute("href")) ?? "";
      assert.match(new URL(href, c.origin).pathname, path);
      await w.page.goto(`${c.origin}${new URL(href, c.origin).pathname}`);
    };
    const nav = w.page.getByRole("navigation", { name: "Main" });
    await w.page.locator(".opblock").first().waitFor();
    // An open operation's wide tables scroll inside it, not the page.
    await w.page.locator(".opblock-summary-control").nth(1).click();
    await w.page.locator(".responses-table").first().waitFor();
    assert.equal(await scrollsSideways(w.page), false);
    await assertCleanPage(w);
    await follow(nav.getByRole("link", { name: "Error codes" }), /^\/docs\/errors$/);
    assert.equal(await w.page.getByRole("heading", { level: 1 }).textContent(), "Error codes");
    await assertCleanPage(w);
    assert.equal(await scrollsSideways(w.page), false);

    await follow(w.page.getByRole("link", { name: "validation_error", exact: true }), /\/validation_error$/);
    assert.equal(await w.page.title(), "validation_error · toolrun");
    assert.match((await w.page.locator(".status-line").textContent()) ?? "", /^HTTP 400 · /);
    // Code spans as code, never backticks.
    assert.ok((await w.page.locator("main p code").count()) > 0);
    assert.doesNotMatch((await w.page.locator("main").textContent()) ?? "", /`/);
    await assertCleanPage(w);
    assert.equal(await scrollsSideways(w.page), false);

    await follow(w.page.getByRole("link", { name: "malformed_request" }).first(), /\/malformed_request$/);
    await follow(
      w.page.locator(".breadcrumb").getByRole("link", { name: "Error codes" }),
      /^\/docs\/errors$/,
    );
    await follow(nav.getByRole("link", { name: "API reference" }), /^\/docs$/);
    await w.page.locator(".opblock").first().waitFor();
  });
});
