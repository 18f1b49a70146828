/**
 * Buying credits end to end, as a customer does it: two `toolrun serve` instances on one
 * PostgreSQL database, Stripe Checkout set up against a local fake of Stripe. A browser on the
 * console's account page presses Buy, follows the fake Checkout's page, which sends the signed
 * event to the instances, and comes back to the account page, whose balance shows the pack's
 * credits once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  FAKE_SECRET_KEY,
  FAKE_WEBHOOK_SECRET,
  type FakeStripe,
  startFakeStripe,
} from "../../helpers/fake-stripe.ts";
import type { ServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { freePort } from "../../oauth/helpers.ts";
import { browserMissing, browseService, type Site } from "../browser/harness.ts";
import { type Cluster, createCluster } from "../scale-out/cluster.ts";

const database = testDatabaseUrl();
const skip = database.skip || browserMissing() || false;
const PACKS = [{ id: "starter", name: "Starter pack", credits: 1000, price: "price_starter" }];
const ALLOWANCE = 100;

describe("buying a pack in the browser, two instances behind it", { skip }, () => {
  let fake: FakeStripe;
  let cluster: Cluster;
  let one: ServerProcess;
  let two: ServerProcess;
  let site: Site;

  before(async () => {
    fake = await startFakeStripe();
    cluster = await createCluster({
      databaseUrl: database.url ?? "",
      redisUrl: null,
      config: { billing: { packs: PACKS } },
    });
    const port = await freePort();
    // Both instances say the same public URL, as behind a load balancer: Stripe's return leads to the first.
    const stripe = {
      TOOLRUN_STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
      TOOLRUN_STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      TOOLRUN_STRIPE_API_BASE: fake.base,
      TOOLRUN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    };
    [one] = (await cluster.start(1, { ...stripe, PORT: String(port) })) as [ServerProcess];
    [two] = (await cluster.start(1, stripe)) as [ServerProcess];
    site = await browseService(new URL(one.url).origin, (await cluster.createKey("free", ALLOWANCE)).key);
  });
  after(async () => {
    await site?.close();
    await cluster?.cleanup();
    await fake?.close();
  });

  /** Buys the starter pack with a new key in a new tab; answers the balance the page shows after. */
  async function buyInBrowser(): Promise<{ shown: string; notice: string; key: string }> {
    const { key } = await cluster.createKey("free", ALLOWANCE);
    const { page } = await site.open("/account", { key });
    await page.getByRole("button", { name: "Buy Starter pack" }).click();
    await page.waitForURL(/\/account\?checkout=success$/);
    const remaining = page.locator('#credits [data-field="credits_remaining"]');
    await remaining.waitFor();
    const shown = (await remaining.textContent()) ?? "";
    const notice = (await page.locator("#checkout-notice").textContent()) ?? "";
    await page.close();
    return { shown, notice, key };
  }

  it("presses Buy on the account page, pays on the fake Checkout and comes back to the pack's credits", async () => {
    fake.webhookUrls = [`${one.url}/v1/billing/stripe/webhook`];
    const { shown, notice, key } = await buyInBrowser();
    assert.match(notice, /payment went through/);
    assert.equal(shown, String(ALLOWANCE + 1000));
    assert.deepEqual(
      fake.deliveries.map((d) => [d.type, d.status]),
      [["checkout.session.completed", 200]],
    );
    // The API says what the page showed.
    const credits = await site.api("/v1/me/credits", key);
    assert.equal(credits.body.credits_remaining, ALLOWANCE + 1000);
  });

  it("grants once when the fake sends the signed event to both instances at once", async () => {
    fake.webhookUrls = [`${one.url}/v1/billing/stripe/webhook`, `${two.url}/v1/billing/stripe/webhook`];
    fake.deliveries.length = 0;
    const { shown, key } = await buyInBrowser();
    assert.deepEqual(
      fake.deliveries.map((d) => d.status),
      [200, 200],
    );
    assert.equal(shown, String(ALLOWANCE + 1000));
    const { grants } = (await site.api("/v1/me/credits", key)).body as {
      grants: { category: string; remaining: number }[];
    };
    assert.deepEqual(
      grants.map((g) => [g.category, g.remaining]),
      [["paid", 1000]],
    );
  });
});
