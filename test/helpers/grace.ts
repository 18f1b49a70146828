/**
 * A rotation's grace against running servers, in real time and with no timing assertion: an
 * answer that arrived before the grace ended was given before it ended (so the old secret must
 * have worked), and a request sent after it ended is answered after it ended (so it must not).
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";

export interface Answered {
  readonly status: number;
  /** The problem's `detail`, when refused. */
  readonly detail: string | undefined;
  /** When the answer had arrived (ms since the epoch). */
  readonly at: number;
}

/** `GET /v1/me/credits` at `base` with `key`. */
export async function credits(base: string, key: string): Promise<Answered> {
  const response = await fetch(`${base}/v1/me/credits`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { detail?: string };
  return { status: response.status, detail: body.detail, at: Date.now() };
}

/**
 * Both secrets on every server, asked during the grace that ends at `end`: every answer 200. Each
 * must have arrived before the end to say so; the grace the test chose is long enough for that.
 */
export async function bothWorkUntil(
  end: string,
  bases: readonly string[],
  secrets: readonly string[],
): Promise<void> {
  const until = Date.parse(end);
  for (const base of bases)
    for (const secret of secrets) {
      const answer = await credits(base, secret);
      assert.ok(
        answer.at < until,
        `answered ${answer.at - until} ms after the grace ended: choose a longer one`,
      );
      assert.equal(answer.status, 200, `${base} with ${secret.slice(0, 12)}…: ${answer.detail}`);
    }
}

/** Waits until the clock has passed `end`. */
export async function pastEnd(end: string): Promise<void> {
  const wait = Date.parse(end) - Date.now() + 1;
  if (wait > 0) await sleep(wait);
}
