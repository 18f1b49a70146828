/**
 * The inspector page's "Catch a real delivery" in Chromium, by labels: create a capture, a
 * delivery signed by the `standardwebhooks` library arrives at its address, one click inspects it
 * (with the signing secret in the form) and the verdict is shown.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { assertCleanPage, browserMissing, type Console, startConsole } from "./harness.ts";

const PAGE = "/tools/webhook-payload-inspector";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
// CRLF line breaks, which a text box turns into LF: the signature holds only if the page sends the
// request as received.
const BODY = '{\r\n  "type": "invoice.paid",\r\n  "data": {"id": "in_1", "amount": 2000}\r\n}';

describe("catching a real delivery on the inspector's page", { skip: browserMissing() ?? false }, () => {
  let c: Console;
  before(async () => {
    c = await startConsole();
  });
  after(async () => {
    await c?.close();
  });

  it("creates a capture, lists a delivery as it arrives, and inspects it with one click", async () => {
    const w = await c.open(PAGE, { key: c.key });
    const { page } = w;
    await page.getByRole("button", { name: "Create a capture address" }).click();
    const address = page.getByLabel("Capture address");
    await address.waitFor();
    const url = await address.inputValue();
    assert.match(url, new RegExp(`^${c.origin}/hooks/[0-9A-Za-z]{32}$`));
    await page.getByRole("button", { name: "Copy address" }).click();
    assert.equal(await page.evaluate<string>("navigator.clipboard.readText()"), url);

    const id = "msg_console_capture";
    const at = new Date();
    const signature = new Webhook(SECRET).sign(id, at, BODY);
    const delivered = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: BODY,
    });
    assert.deepEqual(await delivered.json(), { received: true });

    // The list is polled every 5 s.
    const inspect = page.getByRole("button", { name: /^Inspect the POST request received at / });
    await inspect.waitFor({ timeout: 20_000 });
    assert.equal(
      await page.getByRole("status").filter({ hasText: "new request" }).textContent(),
      "1 new request received.",
    );
    await page.getByLabel("Signing Secret").fill(SECRET);
    await inspect.click();
    const verdict = page.getByRole("region", { name: "Verification" });
    await verdict.waitFor();
    assert.equal(await verdict.locator(".verdict-status").textContent(), "valid");
    const overview = page.getByRole("table", { name: "Overview" });
    assert.equal(
      await overview
        .getByRole("row", { name: /Provider/ })
        .locator("td")
        .nth(1)
        .textContent(),
      "Standard Webhooks",
    );
    // The raw request box shows the request as received (its line breaks as a text box keeps them).
    const raw = await page.getByLabel("Raw Webhook Request").inputValue();
    assert.match(raw, /^POST \/hooks\/[0-9A-Za-z]{32} HTTP\/1\.1\n/);
    assert.ok(raw.endsWith(`\n\n${BODY.replaceAll("\r\n", "\n")}`));
    await assertCleanPage(w);

    await page.getByRole("button", { name: "Delete the capture" }).click();
    await page.getByRole("button", { name: "Create a capture address" }).waitFor();
    assert.equal((await fetch(url, { method: "POST", body: "{}" })).status, 404);
    await page.close();
  });
});
