/**
 * The upstream of the bench's HTTP tools: a bare node:http server on loopback. `POST /echo`
 * answers a small JSON object at once; `/slow/<ms>` after that many milliseconds; `/hold` when
 * `POST /release` comes; `GET /stats` says how many requests it holds now and at most so far
 * (reset by `POST /stats/reset`). Usage: node bench/upstream-server.ts; prints "upstream listening on URL".
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

let inFlight = 0;
let maxInFlight = 0;
let held: (() => void)[] = [];

const ECHO = JSON.stringify({ ok: true, ticket: "T-1", status: "open" });

function answer(response: ServerResponse, body: string): void {
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

/** A request the bench's HTTP tools make (the others are the bench's own questions). */
const isCall = (url: string) => url === "/echo" || url === "/hold" || url.startsWith("/slow/");

const server = createServer((request, response) => {
  const url = request.url ?? "/";
  if (isCall(url)) {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on("close", () => inFlight--);
  }
  request.resume();
  request.on("end", () => {
    const slow = /^\/slow\/(\d+)$/.exec(url);
    if (slow) {
      setTimeout(() => answer(response, ECHO), Number(slow[1]));
      return;
    }
    switch (url) {
      case "/echo":
        return answer(response, ECHO);
      case "/hold":
        held.push(() => answer(response, ECHO));
        return;
      case "/release": {
        const released = held;
        held = [];
        for (const release of released) release();
        return answer(response, JSON.stringify({ released: released.length }));
      }
      case "/stats":
        return answer(response, JSON.stringify({ inFlight, maxInFlight }));
      case "/stats/reset":
        maxInFlight = inFlight;
        return answer(response, "{}");
      default:
        response.writeHead(404).end();
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`upstream listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
