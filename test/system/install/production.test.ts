/**
 * A production install as an operator makes it on a fresh machine: a copy of the checkout (the
 * files git tracks, as a clone has them), `npm ci --omit=dev` with the machine's own Node (20) and
 * npm, then `npm start`; a tool call on the key it prints; SIGTERM to npm stops it cleanly. Then the
 * CLI as docs/cli.md tells: `npx toolrun` inside the checkout, and outside it through `npm link` and
 * by the launcher's path.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { listening, ROOT, run, type Started, sleep, start } from "../run.ts";
import { machineEnv, NO_SYSTEM_NODE, SYSTEM_NODE, SYSTEM_NODE_VERSION } from "./machine.ts";

/** The files a clone has: what git tracks, as they are in the work tree now. */
function copyCheckout(to: string): void {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT }).toString().split("\0");
  for (const file of tracked) {
    if (file === "" || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(to, file));
  }
}

async function stopped(server: Started): Promise<number | null> {
  const code = await Promise.race([server.exited, sleep(30_000).then(() => "still running" as const)]);
  assert.notEqual(code, "still running", `not stopped:\n${server.stderr()}`);
  return code as number | null;
}

describe(`production install with the machine's Node ${SYSTEM_NODE_VERSION ?? ""}`, {
  skip: NO_SYSTEM_NODE,
  timeout: 600_000,
}, () => {
  let dir: string;
  let checkout: string;
  let data: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-install-"));
    checkout = join(dir, "toolrun");
    data = join(dir, "data", "toolrun.db");
    copyCheckout(checkout);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("npm ci --omit=dev installs the runtime and no development tool, without an engine warning about toolrun", async () => {
    const installed = await run(
      "npm",
      ["ci", "--omit=dev", "--no-audit", "--no-fund"],
      machineEnv(),
      checkout,
    );
    assert.equal(installed.code, 0, installed.stderr);
    assert.doesNotMatch(installed.stderr, /EBADENGINE\s+package: 'toolrun@/);
    assert.ok(existsSync(join(checkout, "node_modules/node/bin/node")), "the pinned Node 24 is installed");
    const pinned = execFileSync(join(checkout, "node_modules/node/bin/node"), ["--version"]).toString();
    assert.match(pinned, /^v24\./);
    for (const dev of ["typescript", "@biomejs/biome", "playwright-core"])
      assert.ok(!existsSync(join(checkout, "node_modules", dev)), `${dev} is a development tool`);
  });

  it("npm start serves on Node 24, answers a tool call, and stops on SIGTERM with exit code 0", async () => {
    // The README's variables for the examples are set, as after its quickstart: no warning about them.
    const server = start(
      "npm",
      ["start"],
      machineEnv({
        TOOLRUN_DATABASE: data,
        PORT: "0",
        LOG_LEVEL: "warn",
        TOOLRUN_KEY: "tr_live_from_the_readme",
        TOOLRUN_URL: "http://127.0.0.1:8080",
      }),
      checkout,
    );
    try {
      const url = await listening(server, 120_000);
      const key = /(tr_live_[0-9A-Za-z]{32})/.exec(server.stderr())?.[1];
      assert.ok(key, server.stderr());
      assert.doesNotMatch(server.stderr(), /not a toolrun variable/);
      const res = await fetch(`${url}/v1/tool/retaining-wall-pressure-calculator`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ height: 5, unitWeight: 18, frictionAngle: 30 }),
      });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { credits_used: number }).credits_used, 2);
      server.child.kill("SIGTERM");
      assert.equal(await stopped(server), 0, server.stderr());
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  it("in the checkout, npx toolrun runs its own launcher, with no engine warning", async () => {
    const version = await run("npx", ["toolrun", "--version"], machineEnv(), join(checkout, "docs"));
    assert.equal(version.code, 0, version.stderr);
    const pkg = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as { version: string };
    assert.equal(version.stdout, `${pkg.version}\n`);
    assert.doesNotMatch(version.stderr, /EBADENGINE/);
  });

  it("outside the checkout, toolrun runs through npm link and by the launcher's path", async () => {
    const elsewhere = mkdtempSync(join(dir, "elsewhere-"));
    // npm's global folder of its own, so the test links nothing into the machine's.
    const prefix = join(dir, "npm-global");
    const linked = await run(
      "npm",
      ["link", "--no-audit", "--no-fund"],
      machineEnv({ npm_config_prefix: prefix }),
      checkout,
    );
    assert.equal(linked.code, 0, linked.stderr);

    const env = machineEnv({ TOOLRUN_DATABASE: data });
    const onPath = await run(
      "toolrun",
      ["keys", "list", "--json"],
      { ...env, PATH: `${join(prefix, "bin")}:${env.PATH}` },
      elsewhere,
    );
    assert.equal(onPath.code, 0, onPath.stderr);
    assert.equal((JSON.parse(onPath.stdout) as { name: string }[])[0]?.name, "bootstrap");

    const byPath = await run(
      SYSTEM_NODE ?? "node",
      [join(checkout, "bin/toolrun.js"), "tools", "list"],
      env,
      elsewhere,
    );
    assert.equal(byPath.code, 0, byPath.stderr);
    assert.match(byPath.stdout, /^SLUG +VERSION/);
  });
});
