/**
 * A small help desk API: the upstream that examples/tools/http-tools.json declares `create-ticket`
 * against, so the README's "add your own tool" runs end to end on one machine:
 *
 *   TICKETS_TOKEN=demo npm run example:help-desk     # listens on http://127.0.0.1:8787
 *
 * `POST /tickets` with `Authorization: Bearer <TICKETS_TOKEN>` and a JSON `{title, priority}` answers
 * 201 and the new ticket; a repeated `Idempotency-Key` gets the ticket it made the first time, made
 * once; a wrong token 401; a body without a title 400. Tickets live in memory. The tests serve the
 * same handler from their own upstream (test/helpers/upstream.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

export interface Ticket {
  readonly id: string;
  readonly title: string;
  readonly priority: string;
  readonly status: "open";
}

export interface HelpDeskAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface HelpDesk {
  /** Answers one request to `/tickets`, its body already read. */
  tickets(
    method: string,
    authorization: string | undefined,
    idempotencyKey: string | undefined,
    body: string,
  ): HelpDeskAnswer;
  /** How many requests came with this `Idempotency-Key`. */
  callsFor(key: string): number;
}

export function createHelpDesk(token: string): HelpDesk {
  const made = new Map<string, Ticket>();
  const calls = new Map<string, number>();
  let next = 1001;
  return {
    tickets(method, authorization, idempotencyKey, body) {
      if (method !== "POST") return { status: 405, body: { error: "POST only" } };
      if (authorization !== `Bearer ${token}`) return { status: 401, body: { error: "bad token" } };
      const input = parseObject(body);
      if (typeof input?.title !== "string") return { status: 400, body: { error: "title is required" } };
      if (idempotencyKey !== undefined) {
        calls.set(idempotencyKey, (calls.get(idempotencyKey) ?? 0) + 1);
        const earlier = made.get(idempotencyKey);
        if (earlier) return { status: 201, body: earlier };
      }
      const ticket: Ticket = {
        id: `T-${next++}`,
        title: input.title,
        priority: typeof input.priority === "string" ? input.priority : "normal",
        status: "open",
      };
      if (idempotencyKey !== undefined) made.set(idempotencyKey, ticket);
      return { status: 201, body: ticket };
    },
    callsFor: (key) => calls.get(key) ?? 0,
  };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const token = process.env.TICKETS_TOKEN;
  if (!token) {
    process.stderr.write("Set TICKETS_TOKEN, the token create-ticket sends (the same value toolrun has).\n");
    process.exit(2);
  }
  const desk = createHelpDesk(token);
  const port = Number(process.env.PORT ?? 8787);
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const key = request.headers["idempotency-key"];
    const answer =
      request.url === "/tickets"
        ? desk.tickets(
            request.method ?? "GET",
            request.headers.authorization,
            typeof key === "string" ? key : undefined,
            body,
          )
        : { status: 404, body: { error: "only /tickets is here" } };
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer.body));
  });
  server.listen(port, "127.0.0.1", () => {
    const { port: bound } = server.address() as AddressInfo;
    process.stdout.write(`Help desk on http://127.0.0.1:${bound}/tickets\n`);
  });
}
