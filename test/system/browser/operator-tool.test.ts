/**
 * An operator's own tool in the console, in real Chromium: an HTTP tool declared in the
 * configuration file of a running `toolrun serve`, looking a customer up in a CRM (the tests'
 * upstream) by an id that has a pattern and a date that has a format. Its answer is a flat record
 * with an address in it, the usual shape of an HTTP tool's outputs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Locator } from "playwright-core";
import { CUSTOMER, startUpstream, type TestUpstream } from "../../helpers/upstream.ts";
import { assertCleanPage, browserMissing, type Console, startConsole } from "./harness.ts";

const PAGE = "/tools/customer-lookup";

function customerLookup(origin: string): Record<string, unknown> {
  return {
    slug: "customer-lookup",
    name: "Customer Lookup",
    description: "Looks a customer up in the CRM by their id.",
    version: "1.0.0",
    weight: 1,
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["id"],
      properties: {
        id: { type: "string", title: "Customer ID", pattern: "^cus_[A-Za-z0-9]+$" },
        since: { type: "string", format: "date", description: "Only activity from this day on." },
      },
    },
    outputSchema: {
      type: "object",
      properties: {
        email: { type: "string", title: "Email address" },
        address: {
          type: "object",
          title: "Postal address",
          properties: { line1: { type: "string", title: "Street" }, postal_code: { type: "string" } },
        },
      },
    },
    url: `${origin}/customers/{id}`,
    method: "GET",
  };
}

/** A table's rows as text, its header row first. */
function rowsOf(table: Locator): Promise<string[][]> {
  return table
    .getByRole("row")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent ?? "")),
    );
}

const missing = browserMissing();

describe("an operator's HTTP tool in the console, in Chromium", { skip: missing ?? false }, () => {
  let upstream: TestUpstream;
  let c: Console;
  before(async () => {
    upstream = await startUpstream();
    c = await startConsole({ httpTools: [customerLookup(upstream.origin)] });
  });
  after(async () => {
    await c?.close();
    await upstream?.close();
  });

  it("shows a flat record as a table of labelled properties and its nested object as a labelled section", async () => {
    const w = await c.open(PAGE, { key: c.key });
    await w.page.getByLabel("Customer ID").fill("cus_9f2Kx");
    await w.page.getByRole("button", { name: "Run", exact: true }).click();
    await w.page.locator("#results:not([hidden])").waitFor();
    const results = w.page.getByRole("region", { name: "Result" });

    // Every value with its name: titles from the output schema, else the names for people.
    assert.deepEqual(await rowsOf(results.getByRole("table", { name: "Properties" })), [
      ["Property", "Value"],
      ["ID", CUSTOMER.id],
      ["Email address", CUSTOMER.email],
      ["First name", CUSTOMER.first_name],
      ["Last name", CUSTOMER.last_name],
      ["Created at", CUSTOMER.created_at],
      ["Active", "true"],
      ["Balance", "1250.5"],
    ]);
    // The section, and the scrolling box of its table inside it, are both named by its heading.
    const address = results.getByRole("region", { name: "Postal address" }).first();
    assert.equal(await address.getByRole("heading", { name: "Postal address" }).count(), 1);
    assert.deepEqual(await rowsOf(address.getByRole("table", { name: "Postal address" })), [
      ["Property", "Value"],
      ["Street", CUSTOMER.address.line1],
      ["City", CUSTOMER.address.city],
      ["Postal code", CUSTOMER.address.postal_code],
    ]);
    // No value stands alone without its name: a record has no summary line.
    assert.equal(await results.locator(".summary").count(), 0);
    await assertCleanPage(w);
  });

  it("gives a pattern field a one-line box and a date a date box, and sends the date as the schema's", async () => {
    const w = await c.open(PAGE, { key: c.key });
    const id = w.page.getByLabel("Customer ID");
    assert.deepEqual(await id.evaluate((el) => [el.tagName, el.getAttribute("type")]), ["INPUT", "text"]);
    const since = w.page.getByLabel("Since");
    assert.equal(await since.getAttribute("type"), "date");
    // A box for one value: one line high, narrower than the form.
    const form = await w.page.getByRole("form", { name: "Customer Lookup input" }).boundingBox();
    const box = await id.boundingBox();
    assert.ok(form && box);
    assert.ok(box.height < 48, `one line high: ${box.height}px`);
    assert.ok(box.width < form.width * 0.75, `narrower than the form: ${box.width}px of ${form.width}px`);

    await id.fill("cus_9f2Kx");
    await since.fill("2026-01-31");
    const before = upstream.requests.length;
    await w.page.getByRole("button", { name: "Run", exact: true }).click();
    await w.page.locator("#results:not([hidden])").waitFor();
    assert.deepEqual(
      upstream.requests.slice(before).map((r) => r.url),
      ["/customers/cus_9f2Kx?since=2026-01-31"],
    );
    await assertCleanPage(w);
  });

  it("disables Run while a call runs, so a second click or Enter sends nothing more", async () => {
    const w = await c.open(PAGE, { key: c.key });
    const id = w.page.getByLabel("Customer ID");
    const runButton = w.page.getByRole("button", { name: "Run", exact: true });
    await id.fill("cus_9f2Kx");
    const before = upstream.requests.length;
    const gate = upstream.hold();
    try {
      await runButton.click();
      await gate.held();
      assert.equal(await runButton.isDisabled(), true);
      await id.press("Enter");
      await runButton.click({ force: true });
    } finally {
      gate.release();
    }
    await w.page.locator("#results:not([hidden])").waitFor();
    assert.equal(await runButton.isEnabled(), true);
    assert.equal(upstream.requests.length - before, 1, "one call reached the upstream");
    await assertCleanPage(w);
  });
});
