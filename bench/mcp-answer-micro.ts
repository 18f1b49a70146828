/**
 * `node bench/mcp-answer-micro.ts [rounds]`: in this process, what the MCP transport does to the
 * SDK's answer of a `tools/call` of the inspector on a push just under its 1 MiB limit, in
 * milliseconds of CPU an answer: the answer parsed and written again to look for errors to
 * correct (how every JSON answer was handled), against `correctedAnswer`, which leaves a success
 * unread. Medians of `rounds` rounds (default 7). A quick check; `npm run bench` (the
 * `mcp-inspector-1mib` case) is the measure of record.
 */
import { correctedAnswer } from "../src/mcp/sdk-answers.ts";
import { webhookPayloadInspector as inspector } from "../src/tools/webhook-payload-inspector/index.ts";
import { githubPushNear, INSPECTOR_SLUG } from "./lib/payloads.ts";

const rounds = Number(process.argv[2] ?? 7);
const N = 50;

function perAnswer(work: () => unknown): number {
  const samples: number[] = [];
  for (let r = 0; r < rounds + 1; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) work();
    const used = process.cpuUsage(start);
    if (r > 0) samples.push((used.user + used.system) / N / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

const envelope = {
  tool: INSPECTOR_SLUG,
  tool_version: inspector.version,
  outputs: inspector.run(JSON.parse(githubPushNear())),
  credits_used: 5,
  credits_remaining: 999_999_995,
  request_id: "req_micro",
};
// As the SDK writes a tools/call result: the envelope as text and as structuredContent.
const body = Buffer.from(
  JSON.stringify({
    result: { content: [{ type: "text", text: JSON.stringify(envelope) }], structuredContent: envelope },
    jsonrpc: "2.0",
    id: 1,
  }),
);
const sent = ["2025-11-25"];

/** A success message, as the rewrite of a params error leaves it. */
const rewritten = (message: unknown): unknown => message;
const reread = perAnswer(() => {
  const text = body.toString("utf8");
  const parsed: unknown = JSON.parse(text);
  const again = JSON.stringify(rewritten(parsed)) === JSON.stringify(parsed) ? text : JSON.stringify(parsed);
  return Buffer.from(again);
});
const untouched = perAnswer(() => correctedAnswer(body, sent));

process.stdout.write(
  [
    `answer of ${(body.length / 2 ** 20).toFixed(2)} MiB; median of ${rounds} rounds of ${N} answers, CPU per answer`,
    `parsed and written again -> correctedAnswer   ${reread.toFixed(2)} -> ${untouched.toFixed(3)} ms`,
    "",
  ].join("\n"),
);
