/**
 * `node bench/inspector-event-loop.ts [calls]`: what 1 MiB webhook-inspector calls cost the main
 * thread (the event loop every other call waits on) in the real application, with their compute on
 * the worker pool and without it. The app runs in this process on an in-memory SQLite store,
 * without request logging; a child process (pinned to CPU 1 where taskset exists) sends the calls
 * back to back on one keep-alive connection. Per mode: the main thread's CPU per call
 * (process.threadCpuUsage), its event-loop utilisation, and the event-loop delay (1 ms resolution)
 * the calls cause: what a small call arriving meanwhile would wait. Run it pinned
 * (`taskset -c 0 node bench/inspector-event-loop.ts`) to put the worker on the main thread's CPU,
 * as the bench does. With `IDEMPOTENT=true`, every call carries an `Idempotency-Key` of its own.
 * A quick check; `npm run bench` remains the measure of record.
 */
import { spawn } from "node:child_process";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { createComputePool } from "../src/adapters/compute/pool.ts";
import { createMemoryRateLimiter } from "../src/adapters/memory/rate-limiter.ts";
import { createSqliteStore } from "../src/adapters/sqlite/store.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createApiKey } from "../src/core/admin/actions.ts";
import { cliActor } from "../src/core/admin/audit.ts";
import { computeRunner } from "../src/core/call/compute-runner.ts";
import { checkedTools } from "../src/core/tools/loader.ts";
import { assembleDeps } from "../src/deps.ts";
import { tools } from "../src/tools/index.ts";
import { findExecutable } from "./lib/procs.ts";

const CALLS = Number(process.argv[2] ?? 300);
const WARM_UP_CALLS = 30;
const IDEMPOTENT = process.env.IDEMPOTENT === "true";

/** The client: `calls` POSTs of the 1 MiB body, one after another, then it prints how many were 2xx. */
const CLIENT = `
import { githubPushNear, INSPECTOR_SLUG } from "./bench/lib/payloads.ts";
import { encodeRequest, RawConnection } from "./bench/lib/raw-client.ts";
const [url, key, calls, idempotent] = process.argv.slice(1);
const target = new URL(url + "/v1/tool/" + INSPECTOR_SLUG);
const body = Buffer.from(githubPushNear());
const headers = { authorization: "Bearer " + key, "content-type": "application/json" };
const request = encodeRequest(target, "POST", headers, body);
const connection = new RawConnection(target.hostname, Number(target.port));
await connection.ready;
let ok = 0;
for (let i = 0; i < Number(calls); i++) {
  const sent = idempotent === "true"
    ? encodeRequest(target, "POST", { ...headers, "idempotency-key": crypto.randomUUID() }, body)
    : request;
  const status = await new Promise((resolve) => connection.send(sent, resolve));
  if (status === 200) ok++;
}
connection.close();
console.log(ok);
`;

function runClient(url: string, key: string, calls: number): Promise<number> {
  const taskset = findExecutable("taskset");
  const args = ["--input-type=module", "-e", CLIENT, url, key, String(calls), String(IDEMPOTENT)];
  const [command, argv] = taskset
    ? [taskset, ["-c", "1", process.execPath, ...args]]
    : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(Number(out.trim())) : reject(new Error(`client exit ${code}`)),
    );
  });
}

async function measure(offloaded: boolean) {
  const config = loadConfig({ TOOLRUN_DATABASE: ":memory:" });
  const store = createSqliteStore(":memory:");
  await store.migrate();
  const deps = assembleDeps({
    store,
    limiter: createMemoryRateLimiter(),
    settings: { ...config.settings, metering: false },
    tools: checkedTools(tools),
    ...(offloaded ? { offload: createComputePool({ runner: computeRunner() }) } : {}),
  });
  const app = buildApp(deps);
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  try {
    const { key } = await createApiKey(deps, cliActor("bench"), {
      accountId: null,
      plan: "builder",
      name: "bench",
      monthlyAllowance: null,
      expiresAt: null,
      metadata: {},
      tools: null,
      access: "full",
    });
    await runClient(url, key, WARM_UP_CALLS);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const cpu = process.threadCpuUsage();
    const utilisation = performance.eventLoopUtilization();
    const started = performance.now();
    delay.enable();
    const ok = await runClient(url, key, CALLS);
    delay.disable();
    const elapsed = performance.now() - started;
    const used = process.threadCpuUsage(cpu);
    const elu = performance.eventLoopUtilization(utilisation);
    const ms = (ns: number) => (ns / 1e6).toFixed(2);
    console.log(
      `${offloaded ? "worker pool " : "main thread "}: ${ok}/${CALLS} calls ok, ${(elapsed / CALLS).toFixed(1)} ms each; ` +
        `main thread CPU ${((used.user + used.system) / 1000 / CALLS).toFixed(2)} ms per call, event-loop utilisation ${(elu.utilization * 100).toFixed(0)} %; ` +
        `event-loop delay p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms`,
    );
  } finally {
    await app.close();
    await deps.close();
  }
}

for (const offloaded of (process.env.MODES ?? "false,true,false,true").split(",").map((m) => m === "true"))
  await measure(offloaded);
