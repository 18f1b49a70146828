/**
 * The SDK speaks web-standard Request and Response; Fastify speaks Node's. These two functions carry
 * a request over (with the raw body Fastify kept) and bring the answer back, streaming only when the
 * SDK answers with an event stream.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { FastifyReply, FastifyRequest } from "fastify";

// Hop-by-hop and framing headers describe Fastify's connection, not the message the SDK reads.
const NOT_FORWARDED = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "content-length"]);

export function toWebRequest(request: FastifyRequest, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(urlOf(request), { method: request.method, headers, body, signal });
}

function urlOf(request: FastifyRequest): string {
  try {
    return new URL(request.url, `${request.protocol}://${request.host}`).href;
  } catch {
    // A Host header that is no host name: the SDK needs some URL, not this one.
    return new URL(request.url, "http://localhost").href;
  }
}

export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== "content-length") reply.header(name, value);
  });
  if (response.body === null) return reply.send();
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
  }
  return reply.send(Buffer.from(await response.arrayBuffer()));
}
