/**
 * A local webhook receiver for tests: an HTTP server on 127.0.0.1 that records every request it
 * gets and answers each with the next of the answers the test scripted (200 once they run out),
 * or never answers when told to hang.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedDelivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Never answer (the sender's timeout ends it). */
  readonly hang?: boolean;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedDelivery[];
  /** Answers for the next requests, in order. */
  answer(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

/** Listens on `port` (a free one by default) of 127.0.0.1. */
export async function startReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const script: ScriptedAnswer[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const next = script.shift() ?? { status: 200 };
      if (next.hang) {
        hanging.push(response);
        return;
      }
      response.writeHead(next.status, next.headers ?? {});
      response.end("ok");
    });
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const { port: listening } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${listening}/hooks`,
    received,
    answer: (...answers) => void script.push(...answers),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/**
 * Checks a delivery as a receiver would, with the `standardwebhooks` library: the signature over
 * the id, timestamp and body with the endpoint's secret. `verify` also refuses a timestamp more
 * than five minutes from the real clock; `anyTime` checks the signature alone, with the same
 * library, for a delivery sent on a test clock moved far ahead. Returns the parsed body.
 */
export function verified(
  secret: string,
  delivery: ReceivedDelivery,
  options: { anyTime?: boolean } = {},
): { type: string; timestamp: string; data: Record<string, unknown> } {
  if (options.anyTime) {
    const at = new Date(Number(delivery.headers["webhook-timestamp"]) * 1000);
    const expected = new Webhook(secret).sign(String(delivery.headers["webhook-id"]), at, delivery.body);
    if (expected !== delivery.headers["webhook-signature"]) throw new Error("No matching signature found");
    return JSON.parse(delivery.body);
  }
  const headers = {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(delivery.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}
