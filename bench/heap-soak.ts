/**
 * `npm run bench:heap -- [calls] [push|1mib] > /dev/null`: the whole service in this process
 * (`app.inject`, the real pipeline on a temporary SQLite file, request logging on stdout) answering the
 * webhook inspector `calls` times (default 100,000 typical pushes), ten at a time, and the V8 heap
 * after a full garbage collection every tenth of the way. RSS alone swings by tens of MiB with
 * allocator and page-cache behaviour; a heap that stays level after collection says nothing is kept
 * per request. Needs `--expose-gc` (the npm script passes it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createApiKey } from "../src/core/admin/actions.ts";
import { cliActor } from "../src/core/admin/audit.ts";
import { startServer } from "../src/server.ts";
import { githubPushBody, githubPushNear, INSPECTOR_SLUG } from "./lib/payloads.ts";
import { writeLiftedConfig } from "./lib/service.ts";

const CONCURRENCY = 10;
const calls = Number(process.argv[2] ?? 100_000);
const payload = process.argv[3] === "1mib" ? githubPushNear() : githubPushBody();
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with --expose-gc: npm run bench:heap");

const dir = mkdtempSync(join(tmpdir(), "toolrun-heap-"));
const config = loadConfig({
  TOOLRUN_DATABASE: join(dir, "toolrun.db"),
  TOOLRUN_CONFIG: writeLiftedConfig(dir),
  PORT: "0",
  LOG_LEVEL: "info",
});
const server = await startServer(config, { migrate: true, err: () => {} });
try {
  const { key } = await createApiKey(server.deps, cliActor("bench"), {
    accountId: null,
    plan: "builder",
    name: "heap soak",
    // Enough credits for every call (the inspector costs 5).
    monthlyAllowance: 2_000_000_000,
    expiresAt: null,
    metadata: {},
    tools: null,
    access: "full",
  });
  const request = {
    method: "POST" as const,
    url: `/v1/tool/${INSPECTOR_SLUG}`,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload,
  };
  const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  const report = (done: number) => {
    collect();
    const memory = process.memoryUsage();
    process.stderr.write(
      `${String(done).padStart(7)} calls: heap used ${mib(memory.heapUsed)} MiB, RSS ${mib(memory.rss)} MiB\n`,
    );
  };
  const step = Math.max(CONCURRENCY, Math.round(calls / 10));
  report(0);
  for (let done = 0; done < calls; ) {
    const batch = Math.min(CONCURRENCY, calls - done);
    const answers = await Promise.all(Array.from({ length: batch }, () => server.app.inject(request)));
    const failed = answers.find((a) => a.statusCode !== 200);
    if (failed) throw new Error(`HTTP ${failed.statusCode}: ${failed.body}`);
    done += batch;
    if (done % step < batch || done === calls) report(done);
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
