/**
 * The request bodies the bench sends: the calculator's documented example, and raw GitHub push
 * deliveries (request line, GitHub's headers with a valid signature, compact JSON body) for the
 * webhook inspector, one typical and one grown to just under the inspector's 1 MiB body limit.
 */
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";

export const CALCULATOR_SLUG = "retaining-wall-pressure-calculator";
export const INSPECTOR_SLUG = "webhook-payload-inspector";

/** The example the server prints at first start. */
export const calculatorBody = JSON.stringify({ height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 });

const SECRET = "bench-webhook-secret";
/** The inspector's default body limit (docs/configuration.md). */
export const INSPECTOR_LIMIT_BYTES = 1024 * 1024;

interface WebhookDefinition {
  readonly name: string;
  readonly examples: readonly PushEvent[];
}

interface PushEvent {
  readonly ref: string;
  readonly commits: readonly Record<string, unknown>[];
  readonly [member: string]: unknown;
}

function pushExample(): PushEvent {
  const all = createRequire(import.meta.url)("@octokit/webhooks-examples") as readonly WebhookDefinition[];
  const push = all.find((d) => d.name === "push");
  // The branch push with a commit, not the tag pushes that carry none.
  const example = push?.examples.find((e) => e.ref.startsWith("refs/heads/") && e.commits.length > 0);
  if (!example) throw new Error("@octokit/webhooks-examples has no branch push example");
  return example;
}

/** A raw delivery as GitHub sends it: headers (with both signatures) and the compact JSON body. */
function rawDelivery(body: string): string {
  const sign = (algorithm: "sha1" | "sha256") =>
    `${algorithm}=${createHmac(algorithm, SECRET).update(body).digest("hex")}`;
  return [
    "POST /webhooks/github HTTP/1.1",
    "Host: hooks.example.com",
    "User-Agent: GitHub-Hookshot/8e03811",
    "Accept: */*",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958",
    "X-GitHub-Event: push",
    "X-GitHub-Hook-ID: 292430182",
    "X-GitHub-Hook-Installation-Target-ID: 79929171",
    "X-GitHub-Hook-Installation-Target-Type: repository",
    `X-Hub-Signature: ${sign("sha1")}`,
    `X-Hub-Signature-256: ${sign("sha256")}`,
    "",
    body,
  ].join("\r\n");
}

function inspectorBody(event: unknown): string {
  return JSON.stringify({ payload: rawDelivery(JSON.stringify(event)), secret: SECRET });
}

/** A typical push: the example as published (about 8 KB on the wire). */
export function githubPushBody(): string {
  return inspectorBody(pushExample());
}

/** The push grown with distinct commits until the request body is just under `limit` bytes. */
export function githubPushNear(limit = INSPECTOR_LIMIT_BYTES): string {
  const example = pushExample();
  const template = example.commits[0] ?? {};
  const withCommits = (n: number) =>
    inspectorBody({
      ...example,
      commits: Array.from({ length: n }, (_, i) => ({
        ...template,
        id: i.toString(16).padStart(40, "0"),
        message: `Commit ${i} of a large push`,
      })),
    });
  let low = 1;
  let high = 1;
  while (Buffer.byteLength(withCommits(high)) <= limit) high *= 2;
  // Largest commit count whose body still fits.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (Buffer.byteLength(withCommits(mid)) <= limit) low = mid;
    else high = mid;
  }
  return withCommits(low);
}

/**
 * The slow call of issue 33: a Stripe event grown to just under `limit` bytes of request body, its
 * `Stripe-Signature` header holding `entries` `v1=` digests (none of them right), and a secret, so
 * that the inspector checks every signature it is willing to check.
 */
export function stripeManySignatures(entries = 4_000, limit = INSPECTOR_LIMIT_BYTES): string {
  const digests = Array.from({ length: entries }, (_, i) => `v1=${i.toString(16).padStart(64, "0")}`);
  const head = [
    "POST /stripe HTTP/1.1",
    "Content-Type: application/json; charset=utf-8",
    `Stripe-Signature: t=${Math.floor(Date.now() / 1000)},${digests.join(",")}`,
    "",
    "",
  ].join("\n");
  // A final line break makes the inspector try the body again without it: twice the work.
  const wrap = (body: string) =>
    JSON.stringify({ payload: `${head}${body}\n`, secret: "whsec_dGVzdF9zZWNyZXQ=" });
  const event = (padding: number) =>
    JSON.stringify({ id: "evt_1", object: "event", type: "charge.succeeded", padding: "x".repeat(padding) });
  const room = limit - Buffer.byteLength(wrap(event(0)));
  if (room < 0) throw new Error(`${entries} signatures do not fit in ${limit} bytes`);
  return wrap(event(room));
}
