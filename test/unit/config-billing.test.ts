import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

const STRIPE = {
  TOOLRUN_STRIPE_SECRET_KEY: "sk_test_0123456789abcdef",
  TOOLRUN_STRIPE_WEBHOOK_SECRET: "whsec_0123456789abcdef",
};
const PACKS = [
  { id: "starter", name: "Starter", credits: 1000, price: "price_1Abc" },
  { id: "large", name: "Large", credits: 50_000, price: "price_2Def" },
];

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "toolrun-billing-")), "config.json");
  writeFileSync(path, JSON.stringify(content));
  return path;
}

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return [...error.problems];
  }
}

describe("billing configuration", () => {
  it("is off unless both Stripe secrets are set, packs or not", () => {
    assert.equal(loadConfig({}).billing, null);
    assert.equal(loadConfig({ TOOLRUN_CONFIG: configFile({ billing: { packs: PACKS } }) }).billing, null);
  });

  it("is on with both secrets and the packs; the API base is a URL's origin", () => {
    const config = loadConfig({
      ...STRIPE,
      TOOLRUN_CONFIG: configFile({ billing: { packs: PACKS } }),
      TOOLRUN_STRIPE_API_BASE: "http://127.0.0.1:12111/",
    });
    assert.deepEqual(config.billing, {
      secretKey: STRIPE.TOOLRUN_STRIPE_SECRET_KEY,
      webhookSecret: STRIPE.TOOLRUN_STRIPE_WEBHOOK_SECRET,
      apiBase: "http://127.0.0.1:12111",
      packs: PACKS,
    });
    assert.equal(
      loadConfig({ ...STRIPE, TOOLRUN_CONFIG: configFile({ billing: { packs: PACKS } }) }).billing?.apiBase,
      null,
    );
  });

  it("names what is wrong: one secret alone, no packs to sell, a bad secret (not repeated), an API base with a path", () => {
    assert.deepEqual(problems({ TOOLRUN_STRIPE_SECRET_KEY: STRIPE.TOOLRUN_STRIPE_SECRET_KEY }), [
      "TOOLRUN_STRIPE_SECRET_KEY and TOOLRUN_STRIPE_WEBHOOK_SECRET must be set together (billing is off with neither)",
    ]);
    assert.deepEqual(problems(STRIPE), [
      "TOOLRUN_STRIPE_SECRET_KEY is set, but TOOLRUN_CONFIG has no billing.packs: list the packs to sell (docs/billing.md)",
    ]);
    const refused = problems({ ...STRIPE, TOOLRUN_STRIPE_WEBHOOK_SECRET: "not-a-secret-at-all" });
    assert.deepEqual(refused, [
      "TOOLRUN_STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret (whsec_…)",
    ]);
    assert.deepEqual(
      problems({
        ...STRIPE,
        TOOLRUN_CONFIG: configFile({ billing: { packs: PACKS } }),
        TOOLRUN_STRIPE_API_BASE: "http://127.0.0.1:1/v1",
      }),
      ['TOOLRUN_STRIPE_API_BASE must be an http or https URL without a path, got "http://127.0.0.1:1/v1"'],
    );
  });

  it("checks each pack member by member", () => {
    const path = configFile({
      billing: {
        packs: [
          { id: "Starter!", name: "", credits: 0, price: "price 1" },
          { id: "ok", name: "Ok", credits: 10, price: "price_ok", colour: "red" },
          { id: "twice", name: "A", credits: 1, price: "price_a" },
          { id: "twice", name: "B", credits: 2, price: "price_b" },
        ],
        currency: "eur",
      },
    });
    assert.deepEqual(problems({ TOOLRUN_CONFIG: path }), [
      'TOOLRUN_CONFIG: billing: unknown member "currency" (expected packs)',
      "TOOLRUN_CONFIG: billing.packs[0].id must be lowercase letters, digits, - and _ (at most 64)",
      "TOOLRUN_CONFIG: billing.packs[0].name must be a text of 1 to 100 characters",
      "TOOLRUN_CONFIG: billing.packs[0].price must be a Stripe price id (price_…)",
      "TOOLRUN_CONFIG: billing.packs[0].credits must be an integer from 1 to 2000000000",
      'TOOLRUN_CONFIG: billing.packs[1]: unknown member "colour"',
      'TOOLRUN_CONFIG: billing.packs[3].id "twice" is used twice',
    ]);
  });
});
