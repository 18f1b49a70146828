/**
 * A process killed (SIGKILL) between its upstream's answer and the capture of the call: the help
 * desk made the ticket, toolrun never recorded the charge. The reservation stays pending, holding
 * its credits, until the sweep of the next process to start (or of any other instance) releases it
 * once TOOLRUN_CALL_ABANDON_S has passed; the client's retry with the same Idempotency-Key then
 * runs again, and the help desk, given the same derived key, answers the ticket it made instead of
 * making another. Charged once, for the retry's answer; the upstream acted once.
 *
 * The kill is placed exactly: the test holds the SQLite file's write lock from the moment the
 * upstream has received the request, so the capture cannot commit before the process dies.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { EXAMPLE_HTTP_TOOLS } from "../../helpers/operator-tools.ts";
import { type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { startUpstream, type TestUpstream, TICKETS_TOKEN } from "../../helpers/upstream.ts";

const ABANDON_S = 2;

describe("a process killed between the upstream's answer and the capture", () => {
  let dir: string;
  let upstream: TestUpstream;
  let env: Record<string, string>;
  let database: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-crash-"));
    upstream = await startUpstream();
    const example = JSON.parse(readFileSync(EXAMPLE_HTTP_TOOLS, "utf8")) as {
      httpTools: Record<string, unknown>[];
    };
    const config = join(dir, "toolrun.json");
    writeFileSync(
      config,
      JSON.stringify({
        httpTools: example.httpTools.map((tool) => ({
          ...tool,
          url: String(tool.url).replace("http://127.0.0.1:8787", upstream.origin),
          // Below the abandon time, as start-up requires.
          timeoutMs: 1500,
        })),
      }),
    );
    database = join(dir, "toolrun.db");
    env = {
      TOOLRUN_DATABASE: database,
      TOOLRUN_CONFIG: config,
      TICKETS_TOKEN,
      TOOLRUN_CALL_ABANDON_S: String(ABANDON_S),
      // The capture waits for the test's lock far longer than the test takes to kill it.
      TOOLRUN_DB_TIMEOUT_MS: "120000",
    };
  });
  after(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves the call reserved, released by the sweep, and the keyed retry does not act twice", async () => {
    let server: ServerProcess | undefined = await startServerProcess(env);
    try {
      const key = /\n\s+(\S+_\S{32})\n/.exec(server.output())?.[1];
      assert.ok(key, server.output());
      const call = (base: string) =>
        fetch(`${base}/v1/tool/create-ticket`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "idempotency-key": "ticket-before-the-crash",
          },
          body: JSON.stringify({ title: "The server will die" }),
        });
      const api = async (base: string, path: string) =>
        (await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
          recent: Record<string, unknown>[];
          credits_used: number;
        };

      const held = upstream.hold();
      const lost = call(server.url).catch(() => null);
      await held.held(1);
      const lock = new DatabaseSync(database);
      lock.exec("BEGIN IMMEDIATE");
      try {
        held.release();
        // The help desk has answered (it made the ticket); the capture waits for the lock.
        while (upstream.inFlight() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        await server.stop("SIGKILL");
        server = undefined;
      } finally {
        lock.exec("ROLLBACK");
        lock.close();
      }
      assert.equal(await lost, null, "the client never got an answer");

      // What the dead process left: the call pending, its credits held.
      const inspect = new DatabaseSync(database, { readOnly: true });
      const left = inspect.prepare("SELECT status, credits FROM usage_calls").all();
      inspect.close();
      assert.deepEqual(
        left.map((row) => [row.status, row.credits]),
        [["pending", 5]],
      );

      server = await startServerProcess(env);
      const base = server.url;
      // The new process sweeps at start and every second; the call is released once 2 s old.
      let usage = await api(base, "/v1/me/usage");
      while (usage.recent[0]?.status !== "refunded") {
        await new Promise((resolve) => setTimeout(resolve, 100));
        usage = await api(base, "/v1/me/usage");
      }
      assert.deepEqual(
        usage.recent.map((c) => [c.tool, c.status, c.http_status, c.credits]),
        [["create-ticket", "refunded", null, 0]],
      );
      assert.equal((await api(base, "/v1/me/credits")).credits_used, 0);

      const retry = await call(base);
      assert.equal(retry.status, 200);
      const envelope = (await retry.json()) as { outputs: { id: string }; credits_used: number };
      // The help desk's first ticket, not a second one.
      assert.equal(envelope.outputs.id, "T-1001");
      const tickets = upstream.requests.filter((request) => request.url === "/tickets");
      assert.equal(tickets.length, 2);
      const [first, second] = tickets.map((request) => request.headers["idempotency-key"]);
      assert.ok(first);
      assert.equal(second, first, "the retry sent the same derived key");
      assert.equal(upstream.callsFor(String(first)), 2);
      assert.equal((await api(base, "/v1/me/credits")).credits_used, 5);
      const after = await api(base, "/v1/me/usage");
      assert.deepEqual(
        after.recent.map((c) => [c.status, c.credits]),
        [
          ["charged", 5],
          ["refunded", 0],
        ],
      );
    } finally {
      await server?.stop();
    }
  });
});
