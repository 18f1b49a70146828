/**
 * The signature check's work is bounded by design, whatever the request holds: one digest of each
 * message the sender may have signed (not one per signature in the header), at most
 * MAX_SIGNATURES_CHECKED signatures of a header, and a budget the check stops at, so a header of
 * 4,000 Stripe `v1=` digests over a large body costs one HMAC of each such message, not 4,000.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { NOW, rawRequest } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";
import { inspect } from "../index.ts";
import { type CheckBudget, MAX_SIGNATURES_CHECKED } from "./budget.ts";

const SECRET = "whsec_bounded";
const now = Math.floor(NOW / 1000);
const body = '{"id":"evt_1","object":"event","type":"charge.succeeded"}';
const right = createHmac("sha256", SECRET).update(`${now}.${body}`).digest("hex");
const wrong = (i: number) => i.toString(16).padStart(64, "0");

/** A Stripe delivery whose header holds `digests`, ending in a line break (so the body is tried twice). */
function stripe(digests: readonly string[]): string {
  return `${rawRequest([`Stripe-Signature: t=${now},${digests.map((d) => `v1=${d}`).join(",")}`], body)}\n`;
}

/** A budget that never runs out and counts what was spent of it. */
function counting(): CheckBudget & { spent: number } {
  return {
    spent: 0,
    spend() {
      this.spent += 1;
      return true;
    },
  };
}

describe("the signature check's work", () => {
  test("4,000 signatures cost one digest per message the sender may have signed", () => {
    const budget = counting();
    const out = inspect(
      { payload: stripe(Array.from({ length: 4_000 }, (_, i) => wrong(i))), secret: SECRET },
      NOW,
      {
        signatureBudget: budget,
      },
    );
    assert.equal(out.verification.status, "invalid");
    // The body as pasted, then without its final line break: two messages, two digests; then, to
    // show what went wrong, the signature this secret gives (one) and the JSON body written
    // pretty and compact (two): a fixed few, whatever the header holds.
    assert.equal(budget.spent, 5);
  });

  test(`checks the first ${MAX_SIGNATURES_CHECKED} signatures of a header and says so when none matched`, () => {
    const within = Array.from({ length: 40 }, (_, i) => wrong(i));
    within[MAX_SIGNATURES_CHECKED - 1] = right;
    const found = inspect({ payload: stripe(within), secret: SECRET }, NOW).verification;
    assert.equal(found.status, "valid", found.reason);

    const beyond = Array.from({ length: 4_000 }, (_, i) => wrong(i));
    beyond[MAX_SIGNATURES_CHECKED] = right;
    const missed = inspect({ payload: stripe(beyond), secret: SECRET }, NOW).verification;
    assert.equal(missed.status, "invalid");
    assert.match(
      missed.reason,
      new RegExp(`only the first ${MAX_SIGNATURES_CHECKED} of its 4000 signatures were checked`),
    );
  });

  test("stops when its budget is spent, and says the check was cut short, not that it failed", () => {
    let left = 1;
    const budget: CheckBudget = { spend: () => left-- > 0 };
    const out = inspect({ payload: stripe([wrong(1), wrong(2)]), secret: SECRET }, NOW, {
      signatureBudget: budget,
    }).verification;
    assert.equal(out.status, "unverifiable");
    assert.match(out.reason, /stopped: it reached its time budget/);
  });
});
