/**
 * Two scenarios of one key against the others on a running server's compute offload, shared by
 * `bench/compute-fairness.ts` (which times them, before and after a change) and the system test
 * test/system/compute/fairness.test.ts (which checks the answers):
 *
 * - the attack: a key sends several of the inspector's slowest calls at once (a 1 MiB Stripe
 *   delivery whose header holds 4,000 signatures, with a secret), and another key sends a plain
 *   1 MiB push meanwhile: how long the victim waits, beside how long it waits alone;
 * - the flood: many keys send 1 MiB pushes, faster than the worker computes them: what the
 *   server's resident memory grows to while they wait, and how each is answered.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { githubPushNear, INSPECTOR_SLUG, stripeManySignatures } from "./payloads.ts";

export interface Answer {
  readonly status: number;
  readonly code: string | null;
  readonly ms: number;
}

/** POSTs a body to the inspector with `key`, and how it was answered, in how long. */
export async function inspect(url: string, key: string, body: string, signal?: AbortSignal): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/tool/${INSPECTOR_SLUG}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
    ...(signal && { signal }),
  });
  const text = await res.text();
  let code: string | null = null;
  if (res.status !== 200) {
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? null;
    } catch {
      code = "(not JSON)";
    }
  }
  return { status: res.status, code, ms: performance.now() - started };
}

export interface AttackResult {
  /** The victim's plain 1 MiB call with the server otherwise idle. */
  readonly victimAlone: Answer;
  /** The same call, sent while the attacker's calls wait or run. */
  readonly victimUnderAttack: Answer;
  readonly attacker: readonly Answer[];
}

export async function attack(
  url: string,
  attackerKey: string,
  victimKey: string,
  calls = 6,
): Promise<AttackResult> {
  const plain = githubPushNear();
  const slow = stripeManySignatures();
  // Warms the worker up (its first task loads the tools).
  await inspect(url, victimKey, plain);
  const victimAlone = await inspect(url, victimKey, plain);
  const attacker = Array.from({ length: calls }, () => inspect(url, attackerKey, slow));
  // The attacker's calls are read and queued first.
  await sleep(300);
  const victimUnderAttack = await inspect(url, victimKey, plain);
  return { victimAlone, victimUnderAttack, attacker: await Promise.all(attacker) };
}

export interface FloodResult {
  readonly rssBeforeMiB: number;
  readonly rssPeakMiB: number;
  /** At the end of the window (or once every call was answered, when sooner). */
  readonly rssEndMiB: number;
  /** From the first call sent to the last answer, or to the window's end. */
  readonly elapsedMs: number;
  /** How many answers of each status (and code); `waiting` for calls unanswered when the window ended. */
  readonly answers: Readonly<Record<string, number>>;
}

/** The resident memory of process `pid` (Linux), in MiB. */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

export interface FloodOptions {
  /** The calls go out one every `spreadMs / calls` milliseconds (all at once for 0). */
  readonly spreadMs?: number;
  /** The body of every call (default a plain 1 MiB push). */
  readonly body?: string;
  /** How long to watch from the first call; calls unanswered then are given up on (default: until all answer). */
  readonly windowMs?: number;
}

/** `calls` inspector calls spread over `keys`, while the server's memory is sampled. */
export async function flood(
  url: string,
  pid: number,
  keys: readonly string[],
  calls: number,
  options: FloodOptions = {},
): Promise<FloodResult> {
  const body = options.body ?? githubPushNear();
  const spreadMs = options.spreadMs ?? 0;
  const rssBeforeMiB = rssMiB(pid);
  let rssPeakMiB = rssBeforeMiB;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeakMiB = Math.max(rssPeakMiB, rssMiB(pid));
      await sleep(50);
    }
  })();
  const started = performance.now();
  const giveUp = new AbortController();
  const sent: Promise<Answer | null>[] = [];
  for (let i = 0; i < calls; i++) {
    sent.push(inspect(url, keys[i % keys.length] as string, body, giveUp.signal).catch(() => null));
    if (spreadMs > 0) await sleep(spreadMs / calls);
  }
  const all = Promise.all(sent);
  const window =
    options.windowMs === undefined ? null : sleep(options.windowMs - (performance.now() - started));
  const settled = await Promise.race([all, ...(window ? [window.then(() => null)] : [])]);
  const elapsedMs = performance.now() - started;
  const rssEndMiB = rssMiB(pid);
  sampling = false;
  await sampler;
  const counts: Record<string, number> = {};
  const answered =
    settled ?? (await Promise.all(sent.map((call) => Promise.race([call, sleep(0).then(() => null)]))));
  giveUp.abort();
  await all;
  for (const answer of answered) {
    const name =
      answer === null
        ? "waiting"
        : answer.code === null
          ? String(answer.status)
          : `${answer.status} ${answer.code}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return { rssBeforeMiB, rssPeakMiB, rssEndMiB, elapsedMs, answers: counts };
}

/** `n` builder keys made through the admin API with `adminKey`. */
export async function createKeys(url: string, adminKey: string, n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ plan: "builder", name: `fairness-${i}` }),
    });
    if (res.status !== 201) throw new Error(`creating a key answered ${res.status}: ${await res.text()}`);
    keys.push(((await res.json()) as { key: string }).key);
  }
  return keys;
}
