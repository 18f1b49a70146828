/**
 * Each configuration mistake an operator makes stops `toolrun serve` with one line naming the
 * variable and what is wrong with its value; a typo in a variable's name is warned about with the
 * name meant; a taken port mints no key.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BIN, lines, listening, sleep, start, toolrun } from "../run.ts";

describe("start-up mistakes", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-startup-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const serve = (env: Record<string, string>) =>
    toolrun(["serve"], { TOOLRUN_DATABASE: join(dir, "ok.db"), PORT: "0", ...env }, dir);

  it("names the variable and the value's problem, on one line", async () => {
    const cases: [Record<string, string>, number, RegExp][] = [
      [
        { HOST: "http://example.com" },
        2,
        /^toolrun: HOST must be an IP address or a host name .*got "http:\/\/example\.com"$/,
      ],
      [{ HOST: "not-a-host" }, 1, /^toolrun: HOST=not-a-host: no such host \((ENOTFOUND|EAI_AGAIN)\)/],
      [
        { TOOLRUN_DATABASE: "postgres://" },
        2,
        /^toolrun: TOOLRUN_DATABASE is a postgres:\/\/ URL without a host/,
      ],
      [
        // A path through a file: what a typo in a directory name gives as any user.
        { TOOLRUN_DATABASE: join(dir, "a-file", "toolrun.db") },
        1,
        /^toolrun: TOOLRUN_DATABASE=\/.*\/a-file\/toolrun\.db: cannot open the database \(EEXIST/,
      ],
      [
        { TOOLRUN_DATABASE: "postgres://toolrun:s3cret@127.0.0.1:1/toolrun" },
        1,
        /^toolrun: TOOLRUN_DATABASE=postgres:\/\/toolrun:\*\*\*@127\.0\.0\.1:1\/toolrun: cannot apply the schema \(connect ECONNREFUSED/,
      ],
      [{ PORT: "http" }, 2, /^toolrun: PORT must be an integer from 0 to 65535, got "http"$/],
      [{ TOOLRUN_SHUTDOWN_TIMEOUT_MS: "10s" }, 2, /^toolrun: TOOLRUN_SHUTDOWN_TIMEOUT_MS must be an integer/],
    ];
    writeFileSync(join(dir, "a-file"), "");
    for (const [env, code, message] of cases) {
      const result = await serve(env);
      const where = JSON.stringify(env);
      assert.equal(result.code, code, `${where}: ${result.stderr}`);
      assert.equal(lines(result.stderr).length, 1, `${where}: ${result.stderr}`);
      assert.match(result.stderr.trim(), message, where);
      assert.doesNotMatch(result.stderr, /s3cret/);
    }
  });

  it("warns about an unknown TOOLRUN_ variable with the name it probably meant", async () => {
    const result = await toolrun(
      ["migrate"],
      { TOOLRUN_DATABASE: join(dir, "typo.db"), TOOLRUN_DATABSE: "x.db", TOOLRUN_FOO_BAR_BAZ: "1" },
      dir,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(lines(result.stderr), [
      "toolrun: warning: TOOLRUN_DATABSE is not a toolrun variable and is ignored; did you mean TOOLRUN_DATABASE?",
      "toolrun: warning: TOOLRUN_FOO_BAR_BAZ is not a toolrun variable and is ignored",
    ]);
  });

  it("with the port taken, names PORT and mints no key", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const address = taken.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const env = { TOOLRUN_DATABASE: join(dir, "taken.db"), PORT: String(port) };
    try {
      const result = await toolrun(["serve"], env, dir);
      assert.equal(result.code, 1);
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(
          `^toolrun: PORT=${port}: 127\\.0\\.0\\.1:${port} is already in use by another process \\(EADDRINUSE\\)`,
        ),
      );
      assert.doesNotMatch(result.stderr + result.stdout, /tr_live_/);
      const keys = await toolrun(["keys", "list", "--json"], env, dir);
      assert.deepEqual(JSON.parse(keys.stdout), []);
    } finally {
      taken.close();
    }
  });

  it("logs each backend at start, naming TOOLRUN_REDIS_URL when Redis cannot be reached, and starts anyway", async () => {
    const server = start(process.execPath, [BIN, "serve"], {
      TOOLRUN_DATABASE: join(dir, "redis.db"),
      TOOLRUN_REDIS_URL: "redis://:pw-secret@127.0.0.1:1",
      PORT: "0",
    });
    try {
      await listening(server);
      // Log lines leave a buffer at least every 200 ms.
      for (let i = 0; i < 100 && !server.stdout().includes('"backend":"rate-limiter"'); i++) await sleep(50);
      const logged = server.stdout().split("\n").filter(Boolean);
      for (const line of logged) JSON.parse(line); // stdout holds JSON log lines only
      const backends = logged.map((l) => JSON.parse(l)).filter((l) => l.backend !== undefined);
      assert.deepEqual(
        backends.map((l) => [l.backend, l.kind, l.level]),
        [
          ["database", "sqlite", 30],
          ["rate-limiter", "redis", 40],
        ],
      );
      assert.match(
        backends[1].msg,
        /^rate limits: cannot reach TOOLRUN_REDIS_URL=redis:\/\/:\*\*\*@127\.0\.0\.1:1 /,
      );
      assert.doesNotMatch(server.stdout() + server.stderr(), /pw-secret/);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});
