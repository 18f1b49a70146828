/**
 * A bug of an operator's module outside its calls does not take the service down with it: a
 * promise rejection nobody handles is logged naming the tool, and the service goes on; a timer
 * that throws stops the process as SIGTERM does, the calls in flight answered first, and it
 * exits 1 with a log line naming the cause. SIGHUP drains as SIGTERM does.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { BIN, listening, PINNED_NODE, type Started, sleep, start } from "../run.ts";

const MODULE = fileURLToPath(new URL("../../fixtures/operator-tools/stray-failure.ts", import.meta.url));

type LogLine = Record<string, unknown> & { msg?: string; level?: number; tool?: string };

function logLines(started: Started): LogLine[] {
  return started
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

describe("an operator's module with a bug outside its calls", () => {
  let dir: string;
  let count = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-stray-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function serve(): Promise<{ server: Started; call(input: object): Promise<Response> }> {
    count += 1;
    const server = start(PINNED_NODE, [BIN, "serve"], {
      TOOLRUN_DATABASE: join(dir, `stray-${count}.db`),
      TOOLRUN_TOOLS: MODULE,
      TOOLRUN_SHUTDOWN_TIMEOUT_MS: "10000",
      PORT: "0",
    });
    const url = await listening(server);
    const key = /\n\s+(\S+_\S{32})\n/.exec(server.stderr())?.[1];
    assert.ok(key, server.stderr());
    const call = (input: object) =>
      fetch(`${url}/v1/tool/stray-failure`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(input),
      });
    return { server, call };
  }

  it("logs a rejection nobody handled, naming the tool, and goes on serving", async () => {
    const { server, call } = await serve();
    try {
      assert.equal((await call({ mode: "stray-rejection" })).status, 200);
      await sleep(200);
      assert.equal((await call({ mode: "wait", ms: 10 })).status, 200);
      assert.equal(server.child.exitCode, null, "still running");
      const logged = logLines(server).find((line) => line.err !== undefined && line.tool !== undefined);
      assert.ok(logged, server.stdout());
      assert.equal(logged.tool, "stray-failure");
      assert.equal(logged.level, 50, "logged as an error");
      assert.match(String(logged.msg), /rejection nobody handled.*goes on/);
      assert.match(JSON.stringify(logged.err), /stray-rejection-from-the-module/);
    } finally {
      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0);
    }
  });

  it("stops on an uncaught exception like SIGTERM: the call in flight is answered, then exit 1 naming the cause", async () => {
    const { server, call } = await serve();
    const inFlight = call({ mode: "wait", ms: 1500 });
    await sleep(200);
    assert.equal((await call({ mode: "throwing-timer", ms: 100 })).status, 200);
    const answered = await inFlight;
    assert.equal(answered.status, 200, "the call in flight when the timer threw is answered");
    assert.deepEqual(((await answered.json()) as { outputs: unknown }).outputs, { mode: "wait" });
    assert.equal(await server.exited, 1);
    const fatal = logLines(server).find((line) => line.level === 60);
    assert.ok(fatal, server.stdout());
    assert.equal(fatal.tool, "stray-failure");
    assert.match(String(fatal.msg), /uncaught exception/);
    assert.match(JSON.stringify(fatal.err), /throwing-timer-from-the-module/);
  });

  it("drains on SIGHUP as on SIGTERM, and exits 0", async () => {
    const { server, call } = await serve();
    const inFlight = call({ mode: "wait", ms: 1000 });
    await sleep(200);
    server.child.kill("SIGHUP");
    const answered = await inFlight;
    assert.equal(answered.status, 200);
    assert.equal(await server.exited, 0);
    assert.ok(
      logLines(server).some((line) => /^SIGHUP: stopping/.test(String(line.msg))),
      server.stdout(),
    );
  });
});
