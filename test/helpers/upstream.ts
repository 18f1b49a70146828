/**
 * A real HTTP upstream on loopback for the tests of HTTP tools (and the system test and bench that
 * call them through a running server). Its behaviour is chosen by the path:
 * - `/echo...`: 200, `{method, url, headers, body}`: the request as it arrived (`url` raw, as sent);
 * - `/slow/<ms>`: 200 `{slept}` after that many milliseconds;
 * - `/status/<code>`: that status, with a JSON body holding `UPSTREAM_BODY_SECRET`;
 * - `/reset`: closes the connection without an answer; `/reset-mid-body`: after half a body;
 * - `/text`: 200 text that is not JSON; `/array`: 200 `[1, 2, 3]`; `/empty`: 204;
 * - `/billing/customers`: 200, a list of two customers (billing-3.0.yaml's list endpoint), the
 *   second with the `Organization-Id` the request sent;
 * - `/bom`: 200 `{"bom": true}` behind a UTF-8 byte order mark;
 * - `/huge`: 200 with a body that never ends (it stops when the client stops reading);
 * - `/huge-declared`: 200 announcing 10 MiB in `Content-Length` and sending a little of it;
 * - `/redirect`: 302 to `/echo`;
 * - `/idempotent`: 200 `{key, calls}`, counting the calls per `Idempotency-Key` (`callsFor`);
 * - `/customers/<id>`: 200 `CUSTOMER` with that id, a flat record with an address in it, as a CRM
 *   answers;
 * - `/tickets`: the example help desk (examples/help-desk/server.ts), the upstream of
 *   examples/tools/http-tools.json, wanting `ticketsToken` (`callsFor` counts its keyed calls too).
 * Every request is recorded (`requests`) once its body has arrived. `hold()` makes the requests
 * that arrive wait, recorded, until the test lets them go on.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHelpDesk } from "../../examples/help-desk/server.ts";

/** How deep `/deep` nests its answer. */
export const DEEP_NESTING = 5000;

export const UPSTREAM_BODY_SECRET = "upstream-body-must-not-leak";
/** The token `POST /tickets` wants unless startUpstream is given another. */
export const TICKETS_TOKEN = "test-tickets-token";

/** What `/customers/<id>` answers, with the id asked for. */
export const CUSTOMER = {
  id: "cus_9f2Kx",
  email: "ada@example.com",
  first_name: "Ada",
  last_name: "Lovelace",
  created_at: "2026-01-31T09:30:00Z",
  active: true,
  balance: 1250.5,
  address: { line1: "12 St James's Square", city: "London", postal_code: "SW1Y 4JH" },
};

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface TestUpstream {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** How many requests came with this `Idempotency-Key` to `/idempotent`. */
  callsFor(key: string): number;
  /** Requests whose answer is not yet sent and whose connection is open. */
  inFlight(): number;
  /** Requests whose connection closed before their answer was sent: their client gave up. */
  abandoned(): number;
  /** Bytes `/huge` wrote before its client stopped reading. */
  hugeBytesWritten(): number;
  /**
   * From now on, requests wait once recorded, before their answer, until `release()`; `held()`
   * resolves when `count` requests (default 1) are waiting.
   */
  hold(): { held(count?: number): Promise<void>; release(): void };
  close(): Promise<void>;
}

export async function startUpstream(options: { ticketsToken?: string } = {}): Promise<TestUpstream> {
  const ticketsToken = options.ticketsToken ?? TICKETS_TOKEN;
  const requests: RecordedRequest[] = [];
  const calls = new Map<string, number>();
  const helpDesk = createHelpDesk(ticketsToken);
  const timers = new Set<NodeJS.Timeout>();
  let hugeBytes = 0;
  let inFlight = 0;
  let abandoned = 0;
  let gate: { readonly open: Promise<void>; waiting: number; readonly arrived: () => void } | null = null;

  const server = createServer(async (request, response) => {
    inFlight++;
    response.on("close", () => {
      inFlight--;
      if (!response.writableFinished) abandoned++;
    });
    const url = request.url ?? "/";
    const path = url.split("?", 1)[0] ?? "/";
    if (path === "/reset") {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    requests.push({ method: request.method ?? "", url, headers: request.headers, body });
    if (gate) {
      const held = gate;
      held.waiting++;
      held.arrived();
      await held.open;
    }

    if (path.startsWith("/echo")) {
      const parsed = body === "" ? null : (parseJson(body) ?? body);
      return json(response, 200, { method: request.method, url, headers: request.headers, body: parsed });
    }
    const slow = /^\/slow\/(\d+)$/.exec(path);
    if (slow) {
      const ms = Number(slow[1]);
      const timer = setTimeout(() => {
        timers.delete(timer);
        json(response, 200, { slept: ms });
      }, ms);
      timers.add(timer);
      response.on("close", () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
      return;
    }
    const customer = /^\/customers\/([^/]+)$/.exec(path);
    if (customer) return json(response, 200, { ...CUSTOMER, id: decodeURIComponent(customer[1] ?? "") });
    const status = /^\/status\/(\d{3})$/.exec(path);
    if (status) return json(response, Number(status[1]), { error: UPSTREAM_BODY_SECRET });
    switch (path) {
      case "/reset-mid-body":
        response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        response.write('{"half": "');
        setImmediate(() => request.socket.destroy());
        return;
      case "/text":
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("this is not JSON");
        return;
      case "/bom":
        response.writeHead(200, { "content-type": "application/json" });
        response.end(`\uFEFF${JSON.stringify({ bom: true })}`);
        return;
      case "/array":
        return json(response, 200, [1, 2, 3]);
      case "/billing/customers":
        return json(response, 200, [
          { id: "cus_1", email: "ada@billing.example", _links: [{ rel: "self", href: "/customers/cus_1" }] },
          { id: "cus_2", email: "alan@billing.example", organization: request.headers["organization-id"] },
        ]);
      case "/deep":
        // An object nested deeper than JSON.stringify can write back: it parses, and passes `{type: object}`.
        response.writeHead(200, { "content-type": "application/json" });
        response.end(`${'{"a":'.repeat(DEEP_NESTING)}{}${"}".repeat(DEEP_NESTING)}`);
        return;
      case "/empty":
        response.writeHead(204);
        response.end();
        return;
      case "/huge":
        return streamForever(response, (n) => {
          hugeBytes += n;
        });
      case "/huge-declared":
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": String(10 * 1024 * 1024),
        });
        response.write('{"a": "');
        return;
      case "/redirect":
        response.writeHead(302, { location: "/echo" });
        response.end();
        return;
      case "/idempotent": {
        const key = String(request.headers["idempotency-key"] ?? "");
        const count = (calls.get(key) ?? 0) + 1;
        calls.set(key, count);
        return json(response, 200, { key, calls: count });
      }
      case "/tickets": {
        const key = request.headers["idempotency-key"];
        const answer = helpDesk.tickets(
          request.method ?? "GET",
          request.headers.authorization,
          typeof key === "string" ? key : undefined,
          body,
        );
        return json(response, answer.status, answer.body);
      }
      default:
        return json(response, 404, { error: "no such mode" });
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    callsFor: (key) => (calls.get(key) ?? 0) + helpDesk.callsFor(key),
    inFlight: () => inFlight,
    abandoned: () => abandoned,
    hugeBytesWritten: () => hugeBytes,
    hold() {
      const open = Promise.withResolvers<void>();
      let notify = () => {};
      const held = {
        open: open.promise,
        waiting: 0,
        arrived: () => notify(),
      };
      gate = held;
      return {
        held: (count = 1) =>
          new Promise<void>((resolve) => {
            notify = () => {
              if (held.waiting >= count) resolve();
            };
            notify();
          }),
        release() {
          if (gate === held) gate = null;
          open.resolve();
        },
      };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** An origin on loopback where nothing listens: connecting to it is refused. */
export async function refusingOrigin(): Promise<string> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return `http://127.0.0.1:${port}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function json(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** Writes 64 KiB chunks as fast as the client reads them, until it stops. */
function streamForever(response: ServerResponse, wrote: (bytes: number) => void): void {
  const chunk = Buffer.alloc(64 * 1024, "a");
  response.writeHead(200, { "content-type": "application/json" });
  response.write('{"a": "');
  const pump = () => {
    while (!response.destroyed) {
      wrote(chunk.length);
      if (!response.write(chunk)) {
        response.once("drain", pump);
        return;
      }
    }
  };
  response.on("close", () => response.removeListener("drain", pump));
  pump();
}
