/**
 * The console's pages and assets as the server sends them: generated from whatever tools are
 * registered (here the test fixtures, which the console has no code for), under a strict CSP,
 * with no inline script or style and nothing from another origin.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tools } from "../../src/tools/index.ts";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { createTestApp } from "../helpers/app.ts";
import { echoTool, fixtureTools } from "../helpers/fixture-tools.ts";
import { layeredWallTool } from "./layered-wall-tool.ts";

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Every URL an HTML page loads by itself (not the links a person may follow). */
function loadedUrls(page: string): string[] {
  return [...page.matchAll(/<(?:script|link|img)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
}

describe("console pages", () => {
  it("serves the tool list at / with no key, linking each registered tool", async (context) => {
    const { app } = await createTestApp({}, context);
    const response = await app.inject({ method: "GET", url: "/" });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers["content-type"] as string, /^text\/html/);
    assert.equal(response.headers["content-security-policy"], CSP);
    assert.match(response.body, /<a href="\/tools\/echo">Echo<\/a>/);
    assert.match(response.body, /<a href="\/tools\/heavy-text">Heavy Text Counter<\/a>/);
    assert.match(response.body, /Credits per run: free 3, builder 3/);
  });

  it("generates a tool's form from its input schema: titles, choices, bounds, required fields", async (context) => {
    const { app } = await createTestApp({}, context);
    const page = (await app.inject({ method: "GET", url: "/tools/echo" })).body;
    assert.match(page, /<label for="field-value">Value<\/label>/);
    assert.match(page, /<input type="number"[^>]* min="0" max="100"[^>]*id="field-value"[^>]* required/);
    // No title: the property's name for people is the label.
    assert.match(page, /<label for="field-mode">Mode<\/label>/);
    assert.match(
      page,
      /<select id="field-mode"[^>]*><option value="ok">ok<\/option><option value="unprocessable">/,
    );
    assert.match(page, /<input type="text" spellcheck="false" size="40" maxlength="200" id="field-note"/);
    assert.match(page, /<button type="submit" id="run">Run<\/button>/);
    assert.match(page, /Copy as curl/);
    assert.match(page, /data-example="\{&#34;value&#34;:21\}">Double 21<\/button>/);
    const heavy = (await app.inject({ method: "GET", url: "/tools/heavy-text" })).body;
    assert.match(heavy, /<textarea rows="12" spellcheck="false" id="field-text"/);
  });

  it("has no inline script, no inline style and loads nothing from another origin", async (context) => {
    const { app } = await createTestApp({}, context);
    for (const url of ["/", "/tools/echo", "/tools/heavy-text", "/account", "/tools/nope"]) {
      const response = await app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      assert.equal(response.statusCode, url === "/tools/nope" ? 404 : 200, url);
      assert.equal(response.headers["content-security-policy"], CSP, url);
      const page = response.body;
      assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/, `${url}: inline script`);
      assert.doesNotMatch(page, /\sstyle=|<style|\son[a-z]+=/, `${url}: inline style or handler`);
      for (const loaded of loadedUrls(page)) {
        assert.match(loaded, /^\/console\//, `${url} loads ${loaded}`);
        const asset = await app.inject({ method: "GET", url: loaded });
        assert.equal(asset.statusCode, 200, loaded);
      }
    }
  });

  it("answers an unknown tool page, or one the operator took off the API, with a 404 problem to a program", async (context) => {
    const { app } = await createTestApp({ toolSettings: { "heavy-text": { api: false } } }, context);
    for (const url of ["/tools/nope", "/tools/heavy-text"]) {
      for (const accept of [
        undefined,
        "*/*",
        "application/json",
        "application/problem+json, text/html;q=0.5",
      ]) {
        const response = await app.inject({ method: "GET", url, headers: accept ? { accept } : {} });
        assert.equal(response.statusCode, 404, `${url} ${accept}`);
        assert.match(String(response.headers["content-type"]), /^application\/problem\+json/);
        assert.equal(response.json().code, "not_found");
      }
    }
    assert.doesNotMatch((await app.inject({ method: "GET", url: "/" })).body, /heavy-text/);
  });

  it("answers an unknown tool page, or one the operator took off the API, with an HTML 404 page to a browser, under the CSP", async (context) => {
    const { app } = await createTestApp({ toolSettings: { "heavy-text": { api: false } } }, context);
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    for (const url of ["/tools/%3Cb%3Enope", "/tools/heavy-text"]) {
      const response = await app.inject({ method: "GET", url, headers: { accept: browser } });
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers["content-type"]), /^text\/html/, url);
      assert.equal(response.headers["content-security-policy"], CSP, url);
      assert.match(response.body, /<h1>Page not found<\/h1>/, url);
      // The way on: the tools and the reference; the address asked for is not repeated.
      assert.match(response.body, /<a href="\/">The tools<\/a>/, url);
      assert.match(response.body, /<a href="http:\/\/toolrun.test\/docs">The API reference<\/a>/, url);
      assert.doesNotMatch(response.body, /nope|heavy-text/, url);
    }
  });

  it("puts consecutive fields of one x-group in a fieldset with the group's title as legend", async (context) => {
    const { app } = await createTestApp({ tools: [layeredWallTool] }, context);
    const page = (await app.inject({ method: "GET", url: "/tools/layered-wall" })).body;
    const legends = [...page.matchAll(/<legend>([^<]*)<\/legend>/g)].map((m) => m[1]);
    assert.deepEqual(legends, ["Wall", "Soil", "Backfill and loads", "Water"]);
    const soil =
      /<fieldset class="group">\s*<legend>Soil<\/legend>([\s\S]*?)<\/fieldset>/.exec(page)?.[1] ?? "";
    assert.deepEqual(
      [...soil.matchAll(/<label for="([^"]+)"/g)].map((m) => m[1]),
      ["field-unitWeight", "field-frictionAngle"],
    );
    // `units` has no group: it stands before the first fieldset.
    assert.ok(page.indexOf('id="field-units"') < page.indexOf("<fieldset"));
    // Tools without the annotation get no fieldsets.
    const { app: plain } = await createTestApp({ tools: fixtureTools }, context);
    assert.doesNotMatch((await plain.inject({ method: "GET", url: "/tools/echo" })).body, /<fieldset/);
  });

  it("shows each x-unit beside its box, the one that follows `units` with its table for the script", async (context) => {
    const { app } = await createTestApp({ tools: [layeredWallTool] }, context);
    const page = (await app.inject({ method: "GET", url: "/tools/layered-wall" })).body;
    const unit = (name: string) =>
      new RegExp(`<span class="unit" id="unit-${name}"([^>]*)>([^<]*)</span>`).exec(page);
    assert.equal(unit("height")?.[2], "m");
    assert.match(
      unit("height")?.[1] ?? "",
      /data-unit-field="units" data-units="\{&#34;metric&#34;:&#34;m&#34;,&#34;imperial&#34;:&#34;ft&#34;\}"/,
    );
    assert.equal(unit("unitWeight")?.[2], "kN/m³");
    assert.equal(unit("surcharge")?.[2], "kPa");
    assert.equal(unit("frictionAngle")?.[2], "degrees");
    assert.equal(unit("frictionAngle")?.[1], "");
    // The unit is part of the box's description for screen readers; the label stays the title.
    assert.match(page, /id="field-height"[^>]*aria-describedby="unit-height error-height"/);
    assert.match(page, /<label for="field-height">Wall Height \(H\)<\/label>/);
  });

  it("words each choice by its x-choices, sending the enum's value", async (context) => {
    const { app } = await createTestApp({ tools }, context);
    const page = (await app.inject({ method: "GET", url: "/tools/retaining-wall-pressure-calculator" })).body;
    assert.match(page, /<option value="atrest">At rest \(K0\)<\/option>/);
    assert.match(page, /<option value="rankine" selected>Rankine<\/option>/);
  });

  it("gives the calculator a title block outside its form, printed at the head of the sheet, and no other tool one", async (context) => {
    const { app } = await createTestApp({ tools }, context);
    const page = (await app.inject({ method: "GET", url: "/tools/retaining-wall-pressure-calculator" })).body;
    const labels = [...page.matchAll(/<label for="sheet-([a-z]+)">([^<]+)<\/label>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    assert.deepEqual(labels, [
      ["project", "Project"],
      ["job", "Job number"],
      ["wall", "Wall reference"],
      ["by", "By"],
      ["checked", "Checked"],
      ["date", "Date"],
      ["rev", "Revision"],
    ]);
    // Before the tool's form, so never part of the request body, and with no data-kind to be sent.
    assert.ok(page.indexOf('id="title-block"') < page.indexOf('id="tool-form"'));
    assert.doesNotMatch(
      page.slice(page.indexOf('id="title-block"'), page.indexOf('id="tool-form"')),
      /data-kind/,
    );
    assert.ok(page.indexOf('id="title-block-sheet"') < page.indexOf("<h1>"));
    const inspector = (await app.inject({ method: "GET", url: "/tools/webhook-payload-inspector" })).body;
    assert.doesNotMatch(inspector, /id="title-block/);
    assert.match(inspector, /<label for="request-body">Body<\/label>/);
    assert.doesNotMatch(page, /id="request-parts/);
  });

  it("names the shell variable a write-only field is read from in the call as curl", async (context) => {
    const { app } = await createTestApp({ tools: [...tools] }, context);
    const page = (await app.inject({ method: "GET", url: "/tools/webhook-payload-inspector" })).body;
    assert.match(page, /<textarea [^>]*id="field-secret"[^>]* data-env="WEBHOOK_SECRET"/);
    assert.doesNotMatch(page, /id="field-payload"[^>]* data-env=/);
  });

  it("carries the output schema's titles for the script that labels the results, and none where there are none", async (context) => {
    const { app } = await createTestApp({ tools: [...tools, layeredWallTool] }, context);
    const titlesOn = async (slug: string) => {
      const page = (await app.inject({ method: "GET", url: `/tools/${slug}` })).body;
      const attribute = /<div id="results-body" class="results-body"(?: data-output-titles="([^"]*)")?>/.exec(
        page,
      );
      assert.ok(attribute, "the results' container");
      return attribute[1] === undefined ? null : JSON.parse(attribute[1].replaceAll("&#34;", '"'));
    };
    assert.deepEqual(await titlesOn("retaining-wall-pressure-calculator"), {
      title: "Retaining Wall Pressure Calculator outputs",
    });
    // The fixture's output schema is `{ type: "object" }`: nothing to carry.
    assert.equal(await titlesOn("layered-wall"), null);
  });

  it("offers Run as a job for an optional tool, says a required one runs as one, and neither for a computing tool", async (context) => {
    const asJob = (slug: string, jobs: "optional" | "required"): AnyToolDefinition => ({
      ...echoTool,
      slug,
      effects: "external",
      jobs,
    });
    const { app } = await createTestApp(
      { tools: [echoTool, asJob("echo-optional", "optional"), asJob("echo-required", "required")] },
      context,
    );
    const pageOf = async (slug: string) => (await app.inject({ method: "GET", url: `/tools/${slug}` })).body;
    const box =
      /<input type="checkbox" id="run-as-job" aria-describedby="run-as-job-help">\n<label for="run-as-job">Run as a job<\/label>/;
    const note = /<p id="job-note" class="help">This tool runs as a job/;
    const panel = /<section id="job" class="job" aria-labelledby="job-title" hidden>/;

    const optional = await pageOf("echo-optional");
    assert.match(
      optional,
      /<body data-page="tool" data-slug="echo-optional" data-version="2.1.0" data-jobs="optional"/,
    );
    assert.match(optional, box);
    assert.doesNotMatch(optional, note);
    assert.match(optional, panel);
    assert.match(
      optional,
      /<button type="button" id="job-cancel" class="secondary" hidden>Cancel the job<\/button>/,
    );

    const required = await pageOf("echo-required");
    assert.match(required, /data-jobs="required"/);
    assert.doesNotMatch(required, box);
    assert.match(required, note);
    assert.match(required, panel);

    const computing = await pageOf("echo");
    assert.match(computing, /data-jobs="no"/);
    for (const part of [box, note, panel]) assert.doesNotMatch(computing, part);
  });

  it("renders the code spans of a tool's description as code, escaped", async (context) => {
    const { app } = await createTestApp({ tools: [layeredWallTool] }, context);
    const page = (await app.inject({ method: "GET", url: "/tools/layered-wall" })).body;
    assert.match(page, /Made for the console&#39;s tests: <code>x-group<\/code> and <code>x-unit<\/code>\./);
  });

  it("answers a method a page does not take with 405 and Allow", async (context) => {
    const { app } = await createTestApp({}, context);
    for (const url of ["/", "/tools/echo", "/account", "/console/console.js"]) {
      const response = await app.inject({ method: "POST", url });
      assert.equal(response.statusCode, 405, url);
      assert.equal(response.headers.allow, "GET, HEAD", url);
      assert.equal(response.json().code, "method_not_allowed", url);
    }
  });
});

describe("console assets", () => {
  it("serves each script with its type, an ETag and the CSP, and every module it imports", async (context) => {
    const { app } = await createTestApp({}, context);
    const pending = ["console.js"];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const name = pending.pop() ?? "";
      if (seen.has(name)) continue;
      seen.add(name);
      const response = await app.inject({ method: "GET", url: `/console/${name}` });
      assert.equal(response.statusCode, 200, name);
      assert.equal(response.headers["content-type"], "text/javascript; charset=utf-8");
      assert.equal(response.headers["content-security-policy"], CSP);
      for (const m of response.body.matchAll(/from "\.\/([\w-]+\.js)"/g)) pending.push(m[1] ?? "");
    }
    assert.ok(seen.size >= 6, [...seen].join(", "));
  });

  it("answers a matching If-None-Match with 304 and an unknown file with a 404 problem", async (context) => {
    const { app } = await createTestApp({}, context);
    const first = await app.inject({ method: "GET", url: "/console/console.css" });
    assert.equal(first.headers["content-type"], "text/css; charset=utf-8");
    const etag = first.headers.etag as string;
    const again = await app.inject({
      method: "GET",
      url: "/console/console.css",
      headers: { "if-none-match": etag },
    });
    assert.equal(again.statusCode, 304);
    for (const url of ["/console/nope.js", "/console/tsconfig.json", "/console/..%2Fhtml.ts"]) {
      const missing = await app.inject({ method: "GET", url });
      assert.equal(missing.statusCode, 404, url);
      assert.equal(missing.json().code, "not_found", url);
    }
  });
});
