/**
 * `/docs` in real Chromium against a real server: Swagger UI renders every path of /openapi.json
 * under the page's Content-Security-Policy, with no request to another origin and no console error
 * (a CSP violation is one), and the error pages are linked.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { browserMissing, type Console, startConsole } from "./harness.ts";

const missing = browserMissing();

describe("the API reference in Chromium", { skip: missing ?? false }, () => {
  let c: Console;
  before(async () => {
    c = await startConsole();
  });
  after(() => c?.close());

  it("renders every documented path from this origin only, with no console error", async () => {
    const w = await c.open("/docs");
    const document = (await (await fetch(`${c.origin}/openapi.json`)).json()) as { paths: object };
    await w.page.locator(".opblock").first().waitFor();
    const shown = new Set(
      await w.page
        .locator(".opblock-summary-path")
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-path"))),
    );
    for (const path of Object.keys(document.paths)) assert.ok(shown.has(path), `${path} is not shown`);
    // Opening an operation renders its schemas and examples: still nothing the policy refuses.
    await w.page.locator(".opblock-summary").first().click();
    await w.page.locator(".opblock-body").first().waitFor();
    assert.deepEqual(w.foreignRequests, [], "requests to another origin");
    assert.deepEqual(w.errors, [], "console errors");
    const errorsLink = w.page.getByRole("link", { name: "Error codes" });
    assert.match(String(await errorsLink.getAttribute("href")), /\/docs\/errors$/);
  });
});
