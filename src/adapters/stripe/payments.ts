/**
 * The payment provider on the official `stripe` library: Checkout Sessions are created with
 * `checkout.sessions.create`, and webhook deliveries are verified with `webhooks.constructEvent`
 * (the signature over the raw body, and its age). `apiBase` points the library at another host,
 * for tests against a local fake of the same calls.
 */
import Stripe from "stripe";
import {
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderError,
  PaymentSignatureError,
} from "../../ports/payments.ts";

export interface StripeOptions {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Where the API is (default Stripe's own, https://api.stripe.com). */
  readonly apiBase?: string | null;
  /** How long a request to the API may take. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function createStripePayments(options: StripeOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...hostOptions(options.apiBase ?? null),
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // The library retries with an idempotency key of its own, so a retried create is one session.
    maxNetworkRetries: 1,
    telemetry: false,
  });
  return {
    async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create({
          mode: "payment",
          line_items: [{ price: request.price, quantity: 1 }],
          client_reference_id: request.accountId,
          metadata: { ...request.metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        });
      } catch (error) {
        throw new PaymentProviderError(
          `Stripe refused to create the Checkout Session: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      if (session.url === null)
        throw new PaymentProviderError("Stripe answered a Checkout Session without a URL");
      return { id: session.id, url: session.url };
    },

    verifyEvent(body: Uint8Array, signature: string | undefined, receivedAt: Date): PaymentEvent {
      if (signature === undefined || signature === "")
        throw new PaymentSignatureError("The request has no Stripe-Signature header.");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          body,
          signature,
          options.webhookSecret,
          undefined,
          undefined,
          // Milliseconds: the library takes the age in seconds from it.
          receivedAt.getTime(),
        );
      } catch (error) {
        throw new PaymentSignatureError(error instanceof Error ? error.message : String(error), {
          cause: error,
        });
      }
      return { id: event.id, type: event.type, session: sessionOf(event) };
    },
  };
}

function sessionOf(event: Stripe.Event): PaymentEvent["session"] {
  if (!event.type.startsWith("checkout.session.")) return null;
  const session = event.data.object as Stripe.Checkout.Session;
  return {
    id: session.id,
    paymentStatus: session.payment_status,
    clientReferenceId: session.client_reference_id ?? null,
    metadata: { ...(session.metadata ?? {}) },
  };
}

/** `TOOLRUN_STRIPE_API_BASE` as the library's host, port and protocol. */
function hostOptions(apiBase: string | null): {
  host?: string;
  port?: number;
  protocol?: "http" | "https";
} {
  if (apiBase === null) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    port: url.port === "" ? (protocol === "http" ? 80 : 443) : Number(url.port),
    protocol,
  };
}
