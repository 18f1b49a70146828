/**
 * The inspector's page in Chromium with the body and the headers pasted apart, as the Stripe
 * dashboard and CLI give them: an event signed by the `stripe` library verifies; the same event
 * re-serialized gets the hint and the signature expected beside the one received; a stale one is
 * shown as expired, not invalid.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import Stripe from "stripe";
import { assertCleanPage, browserMissing, type Console, startConsole } from "./harness.ts";

const PAGE = "/tools/webhook-payload-inspector";
const SECRET = "whsec_console_inspector_test";
const stripe = new Stripe("sk_test_console");

/** A Stripe event as Stripe sends it: pretty-printed with two spaces. */
const EVENT = JSON.stringify(
  {
    id: "evt_1QxConsole",
    object: "event",
    api_version: "2024-06-20",
    created: 1732838400,
    data: { object: { id: "pi_3QxConsole", object: "payment_intent", amount: 2000, currency: "eur" } },
    livemode: false,
    type: "payment_intent.succeeded",
  },
  null,
  2,
);

const signed = (payload: string, ageSeconds = 0) =>
  stripe.webhooks.generateTestHeaderString({
    payload,
    secret: SECRET,
    timestamp: Math.floor(Date.now() / 1000) - ageSeconds,
  });

async function inspectParts(page: Page, headers: string, body: string): Promise<void> {
  await page.getByRole("radio", { name: "Body and headers" }).check();
  await page.getByLabel("Headers", { exact: true }).fill(headers);
  await page.getByLabel("Body", { exact: true }).fill(body);
  await page.getByLabel("Signing Secret").fill(SECRET);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.locator("#results:not([hidden]), #problem:not([hidden])").first().waitFor();
}

const verdict = (page: Page) => page.getByRole("region", { name: "Verification" });

/** The verdict's figures (`Expected`, `Hint`...) by their names. */
async function figures(page: Page): Promise<Record<string, string>> {
  const box = verdict(page);
  const names = await box.locator("dt").allTextContents();
  const values = await box.locator("dd").allTextContents();
  return Object.fromEntries(names.map((name, i) => [name, values[i] ?? ""]));
}

describe("the inspector's page with the body and headers apart", { skip: browserMissing() ?? false }, () => {
  let c: Console;
  before(async () => {
    c = await startConsole();
  });
  after(async () => {
    await c?.close();
  });

  it("verifies a Stripe event signed by the stripe library, pasted as body plus headers", async () => {
    const w = await c.open(PAGE, { key: c.key });
    const header = signed(EVENT);
    await inspectParts(w.page, `Stripe-Signature: ${header}\nContent-Type: application/json`, EVENT);
    assert.equal(await verdict(w.page).locator(".verdict-status").textContent(), "valid");
    const overview = w.page.getByRole("table", { name: "Overview" });
    assert.equal(
      await overview
        .getByRole("row", { name: /Provider/ })
        .locator("td")
        .nth(1)
        .textContent(),
      "Stripe",
    );
    // The boxes made the raw request the tool takes, which the call as curl sends too.
    await w.page.getByRole("radio", { name: "Raw request" }).check();
    assert.equal(
      await w.page.getByLabel("Raw Webhook Request").inputValue(),
      `Stripe-Signature: ${header}\nContent-Type: application/json\n\n${EVENT}`,
    );
    await assertCleanPage(w);
    await w.page.close();
  });

  it("headers given as a JSON object verify too", async () => {
    const w = await c.open(PAGE, { key: c.key });
    await inspectParts(w.page, JSON.stringify({ "Stripe-Signature": signed(EVENT) }), EVENT);
    assert.equal(await verdict(w.page).locator(".verdict-status").textContent(), "valid");
    await w.page.close();
  });

  it("a re-serialized body gets the hint, with the signature expected beside the one received", async () => {
    const w = await c.open(PAGE, { key: c.key });
    const header = signed(EVENT);
    await inspectParts(w.page, `Stripe-Signature: ${header}`, JSON.stringify(JSON.parse(EVENT)));
    assert.equal(await verdict(w.page).locator(".verdict-status").textContent(), "invalid");
    const shown = await figures(w.page);
    assert.match(shown.Hint ?? "", /matches this JSON written pretty-printed with two-space indentation/);
    assert.equal(shown.Received, `v1=${/v1=([0-9a-f]{64})/.exec(header)?.[1]}`);
    assert.match(shown.Expected ?? "", /^v1=[0-9a-f]{64}$/);
    assert.notEqual(shown.Expected, shown.Received);
    await assertCleanPage(w);
    await w.page.close();
  });

  it("a correctly signed event outside Stripe's window is shown as expired, not invalid", async () => {
    const w = await c.open(PAGE, { key: c.key });
    await inspectParts(w.page, `Stripe-Signature: ${signed(EVENT, 3600)}`, EVENT);
    const box = verdict(w.page);
    assert.equal(await box.locator(".verdict-status").textContent(), "expired");
    assert.equal(await box.getAttribute("class"), "verdict verdict-expired");
    assert.match(
      (await box.locator(".verdict-reason").textContent()) ?? "",
      /The signature matches, but it was signed at .*outside Stripe's window of 5 minutes/,
    );
    await assertCleanPage(w);
    await w.page.close();
  });
});
