/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the real binary:
 * `toolrun serve` on a temporary SQLite file, a key made with `toolrun keys create`, and a local
 * forwarder that adds the key (the suite's client sends none). Scenarios that need the suite's own
 * fixture tools, prompts or resources are listed, with the reason, in conformance-baseline.json;
 * the CLI fails on any other failure and on a baseline entry that starts passing.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { initializeMessage, postRpcWithHost } from "../../mcp/helpers.ts";
import { type Forwarder, startForwarder } from "./forwarder.ts";

const CLI = fileURLToPath(
  new URL("../../../node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url),
);
const BASELINE = fileURLToPath(new URL("./conformance-baseline.json", import.meta.url));
/** The scenarios that apply to a product server: they must pass, never be baselined. */
const REQUIRED = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

interface Baseline {
  server: string[];
  reasons: Record<string, string>;
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function run(args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** checks.json of each scenario under the output directory, keyed by scenario name. */
function resultsIn(dir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "checks.json") continue;
    const scenario = entry.parentPath
      .slice(dir.length + 1)
      .replace(/^server-/, "")
      .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    results.set(scenario, JSON.parse(readFileSync(join(entry.parentPath, entry.name), "utf8")) as Check[]);
  }
  return results;
}

describe("MCP conformance suite", () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let forwarder: Forwarder;
  let key = "";

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-conformance-"));
    let target = "";
    forwarder = await startForwarder(
      () => target,
      () => `Bearer ${key}`,
    );
    // No TOOLRUN_ALLOWED_ORIGINS: the suite sends Origin http://<the forwarder's 127.0.0.1:port>,
    // which a server listening on loopback admits as it is (docs/mcp.md).
    const env = { TOOLRUN_DATABASE: join(dir, "toolrun.db") };
    // keys commands never create a database: make it first, as an operator does.
    assert.equal((await runCli(["migrate"], env)).code, 0);
    const created = await runCli(
      ["keys", "create", "--plan", "builder", "--name", "conformance", "--json"],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    key = (JSON.parse(created.stdout) as { key: string }).key;
    server = await startServerProcess(env);
    target = server.url;
  });
  after(async () => {
    await server?.stop();
    await forwarder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists a reason for every baselined scenario and baselines none of the required ones", () => {
    const baseline = JSON.parse(readFileSync(BASELINE, "utf8")) as Baseline;
    assert.deepEqual(Object.keys(baseline.reasons).sort(), [...baseline.server].sort());
    for (const reason of Object.values(baseline.reasons)) assert.ok(reason.length > 20, reason);
    for (const scenario of REQUIRED) assert.ok(!baseline.server.includes(scenario), scenario);
  });

  it("passes every applicable scenario; only the baselined ones fail", { timeout: 240_000 }, async () => {
    const out = join(dir, "results");
    const { code, output } = await run(
      ["server", "--url", `${forwarder.url}/mcp`, "--expected-failures", BASELINE, "-o", out],
      dir,
    );
    assert.equal(code, 0, output);
    assert.match(output, /Baseline check passed/);
    const results = resultsIn(out);
    for (const scenario of REQUIRED) {
      const checks = results.get(scenario);
      assert.ok(checks && checks.length > 0, `${scenario} ran:\n${output}`);
      for (const check of checks)
        assert.equal(check.status, "SUCCESS", `${scenario}/${check.id}: ${check.errorMessage}`);
    }
  });

  it("still refuses a non-loopback Origin and Host with 403, with no origin configured", async () => {
    for (const headers of [{ origin: "http://evil.example.com" }, { host: "evil.example.com" }]) {
      const url = server?.url ?? "";
      const res = await postRpcWithHost(
        `${url}/mcp`,
        headers.host ?? new URL(url).host,
        initializeMessage(),
        {
          authorization: `Bearer ${key}`,
          ...(headers.origin === undefined ? {} : { origin: headers.origin }),
        },
      );
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal((res.body as { code: string }).code, "origin_not_allowed");
    }
  });
});
