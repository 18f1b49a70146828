/**
 * Client side of the scale-out tests: one tool call over HTTP with its own x-request-id, recorded
 * with what came back (or that nothing did), and the clock helpers that keep a burst inside one
 * UTC-minute rate-limit window.
 */
import { setTimeout as sleep } from "node:timers/promises";

export const CALCULATOR = "retaining-wall-pressure-calculator";
export const CALCULATOR_INPUT = { height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 };

export type Json = Record<string, unknown>;

export interface CallRecord {
  /** The x-request-id sent; the service echoes it and stores it on the usage row. */
  readonly id: string;
  /** Index of the instance the call was sent to. */
  readonly instance: number;
  /** HTTP status, or null when no response arrived (the connection died). */
  readonly status: number | null;
  readonly headers: Headers | null;
  readonly body: Json | null;
  readonly sentAt: number;
  readonly receivedAt: number;
}

/** POST /v1/tool/{slug} with `id` as x-request-id; never throws for a lost response. */
export async function callTool(
  baseUrl: string,
  instance: number,
  key: string,
  id: string,
  input: Json = CALCULATOR_INPUT,
  slug = CALCULATOR,
  headers: Record<string, string> = {},
): Promise<CallRecord> {
  const sentAt = Date.now();
  try {
    const res = await fetch(`${baseUrl}/v1/tool/${slug}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "x-request-id": id,
        ...headers,
      },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json()) as Json;
    return { id, instance, status: res.status, headers: res.headers, body, sentAt, receivedAt: Date.now() };
  } catch {
    return { id, instance, status: null, headers: null, body: null, sentAt, receivedAt: Date.now() };
  }
}

/** One stateless MCP `tools/call` of the calculator, as JSON-RPC over POST /mcp. */
export async function callMcpTool(
  baseUrl: string,
  key: string,
  id: string,
): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "x-request-id": id,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: CALCULATOR, arguments: CALCULATOR_INPUT },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

/** GET a keyed JSON endpoint; returns the status and body. */
export async function getJson(
  baseUrl: string,
  path: string,
  key: string,
): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

export const WINDOW_MS = 60_000;

/**
 * Rate-limit windows are fixed UTC minutes. When fewer than `marginMs` remain in the current one,
 * waits until just after the next starts, so a burst begun now ends in the window it began in.
 */
export async function waitForRoomInWindow(marginMs = 10_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < marginMs) await sleep(left + 250);
}

export function windowOf(ms: number): number {
  return Math.floor(ms / WINDOW_MS) * WINDOW_MS;
}

export function count<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  return items.reduce((n, item) => n + (predicate(item) ? 1 : 0), 0);
}
