/**
 * Buying credits: `POST /v1/billing/checkout` (keyed, free, takes a slot; a read-only key may buy)
 * and the Stripe webhook, `POST /v1/billing/stripe/webhook`, which takes no key: its body is
 * verified raw (the app keeps every body as bytes) against `Stripe-Signature`. With billing off,
 * both answer 404 `billing_disabled`.
 */

import type { FastifyRequest } from "fastify";
import {
  checkoutAnswerSchema,
  checkoutBodySchema,
  parseCheckout,
  startCheckout,
} from "../../core/billing/checkout.ts";
import { receivePaymentEvent } from "../../core/billing/events.ts";
import { type Billing, billingDisabled } from "../../core/billing/packs.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import { parseJsonBody } from "../../core/call/json-body.ts";
import { JSON_TYPE } from "../../core/kernel/endpoint.ts";
import { ApiError } from "../../core/kernel/errors.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { type HttpRoute, keyOf } from "../register.ts";

/** Stripe's events are a few KiB; this leaves room for a session's metadata and line items. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;
const CHECKOUT_BODY_LIMIT = 4 * 1024;

const webhookAnswerSchema: JsonSchema = {
  type: "object",
  required: ["received", "outcome"],
  additionalProperties: false,
  properties: {
    received: { type: "boolean", const: true },
    outcome: {
      type: "string",
      enum: ["granted", "already_granted", "ignored", "unknown_account"],
      description:
        "`granted`: the session's credits were granted now; `already_granted`: an earlier delivery granted them; `ignored`: the event grants nothing (another type, a session not paid yet, another application's checkout); `unknown_account`: the session names no account of this service (logged, nothing granted).",
    },
  },
};

const stripeSignatureHeader: JsonSchema = {
  type: "object",
  properties: { "stripe-signature": { type: "string", description: "Stripe's signature of the body." } },
};

/** Why Stripe did not create a checkout is the operator's to read (a wrong key, an unknown price). */
function logRefusedCheckout(request: FastifyRequest, error: unknown): void {
  if (error instanceof ApiError && error.code === "payment_provider_unavailable")
    request.log.warn(
      { err: { message: error.cause instanceof Error ? error.cause.message : String(error.cause) } },
      "stripe: the checkout was not created",
    );
}

export function billingRoutes(deps: CoreDeps, billing: Billing | null): HttpRoute[] {
  return [
    {
      method: "POST",
      path: "/v1/billing/checkout",
      operationId: "createCheckout",
      summary: "Buy a pack of credits",
      description:
        "Creates a Stripe Checkout Session for one of the operator's packs, paid for this key's account, and answers its `url`: send the buyer there. Once Stripe reports the payment (the webhook), the pack's credits are a paid grant on the account. Success and cancel come back to the console's account page. A read-only key may buy. Free: costs no credits (it does take a rate-limit slot).",
      tag: "Account",
      keyed: true,
      bodyLimit: CHECKOUT_BODY_LIMIT,
      requestBody: { contentType: JSON_TYPE, schema: checkoutBodySchema },
      answers: [
        {
          status: 200,
          description: "The checkout page",
          contentType: JSON_TYPE,
          schema: checkoutAnswerSchema,
        },
      ],
      errors: ["validation_error", "billing_disabled", "payment_provider_unavailable", "payload_too_large"],
      handler: async (request) => {
        if (billing === null) throw billingDisabled();
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const pack = parseCheckout(parseJsonBody(raw));
        try {
          return await startCheckout(
            billing,
            deps.settings.publicUrl,
            keyOf(request).accountId,
            pack,
            "/account",
          );
        } catch (error) {
          logRefusedCheckout(request, error);
          throw error;
        }
      },
    },
    {
      method: "POST",
      path: "/v1/billing/stripe/webhook",
      operationId: "stripeWebhook",
      summary: "Stripe's events (for Stripe)",
      description:
        "Where Stripe delivers its events; no key, the `Stripe-Signature` header instead (a missing, wrong or stale one: 400 `payment_signature_invalid`, nothing granted). `checkout.session.completed` with `payment_status: paid` and `checkout.session.async_payment_succeeded` grant the session's pack to its account as a paid grant whose reference is the session id, once however often they are delivered; every other event is answered 200 and ignored, and so is an event for an account this service does not have (logged).",
      tag: "Account",
      keyed: false,
      bodyLimit: WEBHOOK_BODY_LIMIT,
      headers: stripeSignatureHeader,
      requestBody: { contentType: JSON_TYPE, schema: { type: "object" } },
      answers: [
        { status: 200, description: "Received", contentType: JSON_TYPE, schema: webhookAnswerSchema },
      ],
      errors: [
        "payment_signature_invalid",
        "billing_disabled",
        "payload_too_large",
        "backend_unavailable",
        "internal_error",
      ],
      handler: async (request) => {
        if (billing === null) throw billingDisabled();
        const signature = request.headers["stripe-signature"];
        const received = await receivePaymentEvent(deps, billing, {
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          signature: Array.isArray(signature) ? signature[0] : signature,
          requestId: request.id,
        });
        const seen = { stripe_event: received.eventId, stripe_event_type: received.eventType };
        if (received.outcome === "unknown_account")
          request.log.warn(
            { ...seen, session_id: received.grant.sessionId, account_id: received.grant.accountId },
            "stripe: a paid checkout names no account of this service; nothing granted",
          );
        else if (received.outcome === "ignored")
          request.log.info({ ...seen, reason: received.reason }, "stripe: event ignored");
        else
          request.log.info(
            {
              ...seen,
              session_id: received.grant.sessionId,
              account_id: received.grant.accountId,
              grant_id: received.grantId,
            },
            received.outcome === "granted" ? "stripe: credits granted" : "stripe: already granted",
          );
        return { received: true, outcome: received.outcome };
      },
    },
  ];
}
