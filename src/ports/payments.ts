/**
 * The payment provider's two doors, as the core's billing sees them: a hosted checkout page to
 * create, and the signed events it sends back. The Stripe adapter (adapters/stripe/) is the one
 * implementation; the core never imports the provider's library.
 */

/** One checkout of a pack: what the provider charges and what the event carries back to us. */
export interface CheckoutRequest {
  /** The provider's id of the price charged (a Stripe price id). */
  readonly price: string;
  /** Returned as `clientReferenceId` and in `metadata` by the provider's events. */
  readonly accountId: string;
  /** Kept on the session, returned in its events' metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Where the provider sends the browser after paying, and after giving up. */
  readonly successUrl: string;
  readonly cancelUrl: string;
}

export interface CheckoutSession {
  readonly id: string;
  /** The provider's page the buyer pays on. */
  readonly url: string;
}

/** A checkout session as an event carries it. */
export interface PaidSession {
  readonly id: string;
  /** `paid`, `unpaid` (an asynchronous payment still on its way) or `no_payment_required`. */
  readonly paymentStatus: string;
  readonly clientReferenceId: string | null;
  readonly metadata: Readonly<Record<string, string>>;
}

/** A verified event; `session` is there for the checkout session events, null for any other. */
export interface PaymentEvent {
  readonly id: string;
  readonly type: string;
  readonly session: PaidSession | null;
}

export interface PaymentProvider {
  /** Throws PaymentProviderError when the provider refuses or cannot be reached. */
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * The event a delivery carries, once its signature header is checked against the raw body and
   * the webhook secret, at `receivedAt` (a signature older than the provider's tolerance is
   * refused). Throws PaymentSignatureError for a missing, wrong or stale signature.
   */
  verifyEvent(body: Uint8Array, signature: string | undefined, receivedAt: Date): PaymentEvent;
}

/** A webhook delivery whose signature does not verify: it is not the provider's, or it is too old. */
export class PaymentSignatureError extends Error {
  override readonly name = "PaymentSignatureError";
}

/** The provider refused to create the checkout, or could not be reached. */
export class PaymentProviderError extends Error {
  override readonly name = "PaymentProviderError";
}
