/**
 * A tiny HTTP proxy on 127.0.0.1 that forwards every request unchanged (Host and Origin included)
 * and adds one Authorization header: the conformance suite's client sends no credentials.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Forwarder {
  /** e.g. http://127.0.0.1:40123 */
  readonly url: string;
  close(): Promise<void>;
}

/** `target()` is read per request, so the forwarder can start before the server it forwards to. */
export async function startForwarder(target: () => string, authorization: () => string): Promise<Forwarder> {
  const server: Server = createServer((incoming, outgoing) => {
    const to = new URL(incoming.url ?? "/", target());
    const upstream = httpRequest(
      to,
      { method: incoming.method, headers: { ...incoming.headers, authorization: authorization() } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
