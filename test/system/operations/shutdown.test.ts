/**
 * Stopping: SIGTERM to whatever started the server (npm start, npx, Node 20 running the launcher)
 * reaches the server; requests in flight finish, a stalled one is cut off at
 * TOOLRUN_SHUTDOWN_TIMEOUT_MS, the process exits with 0 and the port is free again.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BIN, listening, PINNED_NODE, type Started, sleep, start } from "../run.ts";

const BOUND_MS = 2000;
/** Time to notice the signal, close the stores and exit, on top of the drain bound. */
const EXIT_SLACK_MS = 8000;

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}

/** A POST to the calculator whose body is only half sent: a request in flight. */
async function halfSentCall(
  url: URL,
  key: string,
): Promise<{ socket: Socket; finish(): void; answer: Promise<string> }> {
  const body = JSON.stringify({ height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 });
  const socket = connect(Number(url.port), url.hostname);
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST /v1/tool/retaining-wall-pressure-calculator HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
  );
  let text = "";
  socket.on("data", (d) => {
    text += d;
  });
  const answer = new Promise<string>((resolve) => {
    socket.on("close", () => resolve(text));
    socket.on("error", () => {});
  });
  return { socket, finish: () => socket.write(body.slice(10)), answer };
}

async function exitsWithin(started: Started, ms: number): Promise<number | null> {
  const code = await Promise.race([started.exited, sleep(ms).then(() => "still running" as const)]);
  assert.notEqual(
    code,
    "still running",
    `not stopped within ${ms} ms:\n${started.stdout()}\n${started.stderr()}`,
  );
  return code as number | null;
}

describe("stopping the server", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-stop-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const env = (name: string) => ({
    TOOLRUN_DATABASE: join(dir, `${name}.db`),
    PORT: "0",
    TOOLRUN_SHUTDOWN_TIMEOUT_MS: String(BOUND_MS),
  });

  it("npm start, SIGTERM to npm: the call in flight is answered, the server exits 0 and frees the port", async () => {
    const server = start("npm", ["start"], env("npm-start"));
    try {
      const url = new URL(await listening(server));
      const key = /(tr_live_[0-9A-Za-z]{32})/.exec(server.stderr())?.[1];
      assert.ok(key, server.stderr());
      const call = await halfSentCall(url, key);
      await sleep(300); // for the server to read the headers: the request is in flight
      server.child.kill("SIGTERM");
      // The server has stopped listening; the connection it already has is served to the end.
      for (let i = 0; i < 50 && (await portIsFree(Number(url.port))) === false; i++) await sleep(50);
      call.finish();
      const answer = await call.answer;
      assert.match(answer, /^HTTP\/1\.1 200 /, answer);
      assert.match(answer, /"credits_used":2/);
      assert.equal(await exitsWithin(server, BOUND_MS + EXIT_SLACK_MS), 0);
      assert.equal(await portIsFree(Number(url.port)), true);
      assert.match(server.stdout(), /"signal":"SIGTERM"/);
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  it("cuts off a stalled request at the bound and still exits 0", async () => {
    const server = start("npm", ["start"], env("stalled"));
    try {
      const url = new URL(await listening(server));
      const key = /(tr_live_[0-9A-Za-z]{32})/.exec(server.stderr())?.[1] ?? "";
      const call = await halfSentCall(url, key);
      await sleep(300); // for the server to read the headers: the request is in flight
      server.child.kill("SIGTERM");
      assert.equal(await exitsWithin(server, BOUND_MS + EXIT_SLACK_MS), 0);
      assert.equal(await call.answer, "", "the stalled request gets no answer, its connection is closed");
      assert.equal(await portIsFree(Number(url.port)), true);
      assert.match(server.stdout(), /requests still in flight at the shutdown bound/);
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  it("npx toolrun serve, SIGTERM to npx: the server exits and frees the port", async () => {
    const server = start("npx", ["toolrun", "serve"], env("npx"));
    try {
      const url = new URL(await listening(server));
      server.child.kill("SIGTERM");
      await exitsWithin(server, BOUND_MS + EXIT_SLACK_MS);
      // npm exec's shell does not pass the signal on: the server notices npm has gone.
      let free = false;
      for (let i = 0; i < 100 && !free; i++) {
        free = await portIsFree(Number(url.port));
        if (!free) await sleep(100);
      }
      assert.equal(free, true, "the port is free once npx has gone");
    } finally {
      server.child.kill("SIGKILL");
      // A server left behind would hold the test's pipes open: end it by the pid it logged.
      const pid = Number(/"pid":(\d+)/.exec(server.stdout())?.[1]);
      if (pid > 0) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone, as it should be.
        }
      }
    }
  });

  it("a SIGTERM while it starts stops it once it has started, with exit code 0, not Node's default kill", async () => {
    // A PostgreSQL that takes connections and never answers holds the start-up for
    // TOOLRUN_DB_TIMEOUT_MS: the signal is sure to arrive while the server starts.
    const held: Socket[] = [];
    const reached = Promise.withResolvers<void>();
    const silent = createServer((socket) => {
      held.push(socket);
      reached.resolve();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const server = start(PINNED_NODE, [BIN, "serve", "--no-migrate"], {
      TOOLRUN_DATABASE: `postgres://toolrun@127.0.0.1:${port}/toolrun`,
      TOOLRUN_DB_TIMEOUT_MS: "1000",
      PORT: "0",
    });
    try {
      await reached.promise;
      server.child.kill("SIGTERM");
      assert.equal(await exitsWithin(server, BOUND_MS + EXIT_SLACK_MS), 0, server.stderr());
      assert.match(server.stdout(), /"signal":"SIGTERM"/);
    } finally {
      server.child.kill("SIGKILL");
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  const systemNode = ["/usr/bin/node", "/bin/node"].find((p) => existsSync(p));
  const oldNode =
    systemNode !== undefined &&
    Number(execFileSync(systemNode, ["-p", "process.versions.node.split('.')[0]"]).toString()) < 24;
  it("Node 20 running bin/toolrun.js serve hands over to Node 24 and passes SIGTERM on", {
    skip: oldNode ? false : "no Node older than 24 on this machine",
  }, async () => {
    const server = start(systemNode ?? "node", [BIN, "serve"], env("node20"));
    try {
      const url = new URL(await listening(server));
      server.child.kill("SIGTERM");
      assert.equal(await exitsWithin(server, BOUND_MS + EXIT_SLACK_MS), 0);
      assert.equal(await portIsFree(Number(url.port)), true);
    } finally {
      server.child.kill("SIGKILL");
    }
  });
});
