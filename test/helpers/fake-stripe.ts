/**
 * A local stand-in for the two parts of Stripe toolrun uses, so billing is tested offline:
 * `POST /v1/checkout/sessions` (as the `stripe` library calls it, form-encoded, with the secret
 * key) answers a session whose `url` is the fake's own checkout page, `GET /pay/{id}`; a browser
 * following that page "pays" and the fake posts the session's events, signed with the library's
 * own test helper, to every webhook URL it was given, all at once, before sending the browser to
 * the session's success URL. Events for tests that send them by hand come from `eventOf` and
 * `signed`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export const FAKE_SECRET_KEY = "sk_test_fakestripe0123456789";
export const FAKE_WEBHOOK_SECRET = "whsec_fakestripe0123456789";
/** The price ids the fake knows; any other is refused as Stripe refuses an unknown price. */
export const FAKE_PRICES = ["price_starter", "price_large"];

const signer = new Stripe(FAKE_SECRET_KEY);

export interface FakeSession {
  readonly id: string;
  readonly object: "checkout.session";
  readonly mode: string;
  readonly url: string;
  readonly status: string;
  readonly payment_status: string;
  readonly client_reference_id: string | null;
  readonly metadata: Record<string, string>;
  readonly success_url: string;
  readonly cancel_url: string;
  readonly price: string;
}

/** How the fake's checkout page pays: by card at once, or by a delayed method (a bank debit). */
export type PaymentWay = "card" | "delayed";

export interface FakeStripe {
  readonly base: string;
  readonly sessions: FakeSession[];
  /** Where the checkout page delivers its events (every URL, at once). */
  webhookUrls: string[];
  payment: PaymentWay;
  /** Each delivery the checkout page made: the URL and the status it got. */
  readonly deliveries: { url: string; type: string; status: number }[];
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions: FakeSession[] = [];
  const deliveries: FakeStripe["deliveries"] = [];
  let base = "";
  const fake: FakeStripe = {
    get base() {
      return base;
    },
    sessions,
    webhookUrls: [],
    payment: "card",
    deliveries,
    close: () => new Promise((done) => server.close(() => done())),
  };

  async function deliver(session: FakeSession, type: string, paymentStatus: string): Promise<void> {
    const payload = JSON.stringify(eventOf(session, type, paymentStatus));
    await Promise.all(
      fake.webhookUrls.map(async (url) => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": signed(payload) },
          body: payload,
        });
        await response.arrayBuffer();
        deliveries.push({ url, type, status: response.status });
      }),
    );
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", base).pathname;
    if (request.method === "POST" && path === "/v1/checkout/sessions") {
      if (request.headers.authorization !== `Bearer ${FAKE_SECRET_KEY}`)
        return stripeError(response, 401, "authentication_error", "Invalid API Key provided");
      const form = new URLSearchParams(await bodyOf(request));
      const price = form.get("line_items[0][price]") ?? "";
      if (!FAKE_PRICES.includes(price))
        return stripeError(response, 400, "invalid_request_error", `No such price: '${price}'`);
      const id = `cs_test_${randomBytes(12).toString("hex")}`;
      const metadata: Record<string, string> = {};
      for (const [name, value] of form) {
        const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
        if (key !== undefined) metadata[key] = value;
      }
      const session: FakeSession = {
        id,
        object: "checkout.session",
        mode: form.get("mode") ?? "",
        url: `${base}/pay/${id}`,
        status: "open",
        payment_status: "unpaid",
        client_reference_id: form.get("client_reference_id"),
        metadata,
        success_url: form.get("success_url") ?? "",
        cancel_url: form.get("cancel_url") ?? "",
        price,
      };
      sessions.push(session);
      response.writeHead(200, { "content-type": "application/json", "request-id": `req_${id}` });
      response.end(JSON.stringify(session));
      return;
    }
    const paying = /^\/pay\/(cs_test_[0-9a-f]+)$/.exec(path);
    const session = sessions.find((s) => s.id === paying?.[1]);
    if (request.method === "GET" && session !== undefined) {
      if (fake.payment === "card") await deliver(session, "checkout.session.completed", "paid");
      else {
        await deliver(session, "checkout.session.completed", "unpaid");
        await deliver(session, "checkout.session.async_payment_succeeded", "paid");
      }
      response.writeHead(303, { location: session.success_url });
      response.end();
      return;
    }
    stripeError(
      response,
      404,
      "invalid_request_error",
      `Unrecognized request URL (${request.method}: ${path})`,
    );
  }

  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A Stripe event about the session, as Stripe sends it. */
export function eventOf(
  session: Pick<FakeSession, "id" | "client_reference_id" | "metadata">,
  type: string,
  paymentStatus: string,
  at = new Date(),
): Record<string, unknown> {
  return {
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: "2026-01-28.clover",
    created: Math.floor(at.getTime() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: session.id,
        object: "checkout.session",
        mode: "payment",
        status: "complete",
        payment_status: paymentStatus,
        client_reference_id: session.client_reference_id,
        metadata: session.metadata,
      },
    },
  };
}

/** The `Stripe-Signature` header of `payload`, signed by the library's own test helper. */
export function signed(payload: string, options: { at?: Date; secret?: string } = {}): string {
  return signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? FAKE_WEBHOOK_SECRET,
    timestamp: Math.floor((options.at ?? new Date()).getTime() / 1000),
  });
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((done, failed) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
    request.on("error", failed);
  });
}

function stripeError(response: ServerResponse, status: number, type: string, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: { type, message } }));
}
