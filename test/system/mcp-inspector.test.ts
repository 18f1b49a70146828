/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, run from node_modules, offline)
 * against the real `toolrun serve`, as a person checking the server would use it: `tools/list
 * --strict` finds no portability error or warning, each tool runs and shows its result, a failing
 * call and a wrong key show the problem's code.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  migratedDatabase,
  type RunResult,
  runCli,
  runScript,
  type ServerProcess,
  startServerProcess,
} from "../helpers/process.ts";

const INSPECTOR = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector", import.meta.url));

describe("MCP Inspector CLI against toolrun serve", () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let key = "";

  /** One Inspector CLI run: `--cli <url>/mcp` with the key's header, then `args`. */
  const inspector = (args: readonly string[], authorization = `Bearer ${key}`): Promise<RunResult> =>
    runScript(
      INSPECTOR,
      ["--cli", `${server?.url}/mcp`, "--header", `Authorization: ${authorization}`, ...args],
      // Its catalog and secrets stay in the temporary directory, never the user's home or keychain.
      { ...process.env, HOME: dir, MCP_INSPECTOR_SECRET_STORE: "memory", NO_COLOR: "1" },
    );
  const callCalculator = (frictionAngle: number) =>
    inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "retaining-wall-pressure-calculator",
      "--tool-arg",
      "height=5",
      "unitWeight=18",
      `frictionAngle=${frictionAngle}`,
    ]);

  before(async () => {
    const made = await migratedDatabase("toolrun-inspector-");
    dir = made.dir;
    const { env } = made;
    const created = await runCli(["keys", "create", "--plan", "free", "--name", "inspector", "--json"], env);
    assert.equal(created.code, 0, created.stderr);
    key = (JSON.parse(created.stdout) as { key: string }).key;
    server = await startServerProcess(env);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("tools/list --strict exits 0 with no portability error or warning", async () => {
    const run = await inspector(["--method", "tools/list", "--strict"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const listed = JSON.parse(run.stdout) as { tools: { name: string }[] };
    assert.deepEqual(
      listed.tools.map((tool) => tool.name),
      [
        "retaining-wall-pressure-calculator",
        "webhook-payload-inspector",
        "search_tools",
        "describe_tool",
        "get_credits",
        "get_usage",
      ],
    );
  });

  it("tools/call of the calculator shows the envelope", async () => {
    const run = await callCalculator(30);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { structuredContent: Record<string, unknown> };
    assert.equal(result.structuredContent.tool, "retaining-wall-pressure-calculator");
    assert.equal(result.structuredContent.credits_used, 2);
    assert.match(JSON.stringify(result.structuredContent.outputs), /Active thrust 75\.00 kN\/m/);
  });

  it("tools/call of the webhook payload inspector shows the envelope", async () => {
    const payload =
      'POST /hooks HTTP/1.1\nX-GitHub-Event: push\nContent-Type: application/json\n\n{"ref":"main"}';
    const run = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "webhook-payload-inspector",
      "--tool-arg",
      `payload=${payload}`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { structuredContent: { outputs: { overview: unknown[] } } };
    assert.equal(result.structuredContent.outputs.overview.length, 12);
    assert.match(JSON.stringify(result.structuredContent.outputs.overview), /GitHub/);
  });

  it("a failing call shows the problem's code and fields", async () => {
    const run = await callCalculator(60);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /returned isError/);
    const result = JSON.parse(run.stdout) as { content: { text: string }[]; _meta: Record<string, unknown> };
    const problem = JSON.parse(result.content[0]?.text ?? "") as Record<string, unknown>;
    assert.equal(problem.code, "validation_error");
    assert.deepEqual(problem.fields, { frictionAngle: "must be at most 50" });
    assert.deepEqual(result._meta["toolrun/problem"], problem);
  });

  it("with a wrong key and --stored-auth-only, shows invalid_api_key and what to send", async () => {
    const run = await inspector(
      ["--method", "tools/list", "--stored-auth-only"],
      `Bearer tr_live_${"A".repeat(32)}`,
    );
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, /invalid_api_key/);
    assert.match(run.stdout + run.stderr, /Authorization: Bearer <API_KEY>/);
  });
});
