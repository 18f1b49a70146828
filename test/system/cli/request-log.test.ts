/**
 * The served process's request log on stdout: lines are buffered off the event loop, yet a lone
 * request's line still appears within moments, and lines still buffered at shutdown are written.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startServerProcess } from "../../helpers/process.ts";

const completedLines = (output: string) =>
  output.split("\n").filter((l) => l.includes('"request completed"'));

describe("served request log", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-log-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writes a lone request's line within a second, and every buffered line on SIGTERM", async () => {
    const server = await startServerProcess({ TOOLRUN_DATABASE: join(dir, "toolrun.db"), LOG_LEVEL: "info" });
    try {
      const lone = await fetch(`${server.url}/healthz`);
      assert.equal(lone.status, 200);
      const deadline = Date.now() + 1000;
      while (completedLines(server.output()).length === 0 && Date.now() < deadline) await sleep(20);
      assert.equal(completedLines(server.output()).length, 1, server.output());

      // A burst, then an immediate stop: what is still in the buffer must not be lost.
      const burst = await Promise.all(Array.from({ length: 30 }, () => fetch(`${server.url}/healthz`)));
      assert.ok(burst.every((r) => r.status === 200));
    } finally {
      assert.equal(await server.stop("SIGTERM"), 0);
      // "exit" can come before the last of stdout has been read.
      const stdout = server.child.stdout;
      if (stdout && !stdout.readableEnded) await once(stdout, "end");
    }
    assert.equal(completedLines(server.output()).length, 31, server.output());
  });
});
