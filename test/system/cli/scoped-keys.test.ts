/**
 * `toolrun keys create --tools a,b --access read` and `toolrun keys update` the same: the key's
 * view shows its scope, a running server holds the key to it (a tool outside its list is the 404
 * of an unknown slug; a read-only key's call is 403 `key_read_only`), an unknown slug is refused
 * naming `tools` and makes no key, and `--tools all` gives every tool back, as `--credits plan`
 * and `--expires never` give the plan's allowance and no expiry back.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";

const WALL = "retaining-wall-pressure-calculator";
const INSPECTOR = "webhook-payload-inspector";
const WALL_INPUT = { height: 4, unitWeight: 18, frictionAngle: 30 };

describe("toolrun keys --tools --access", () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-scopes-"));
    server = await startServerProcess(env);
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (key: string, slug: string) => {
    const res = await fetch(`${server.url}/v1/tool/${slug}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(WALL_INPUT),
    });
    return { status: res.status, code: ((await res.json()) as { code?: string }).code };
  };

  it("creates a key limited to one tool, and a read-only key, which the server holds to it", async () => {
    const limited = await runCli(["keys", "create", "--plan", "builder", "--tools", WALL, "--json"], env);
    assert.equal(limited.code, 0, limited.stderr);
    const view = JSON.parse(limited.stdout) as { key: string; tools: string[]; access: string };
    assert.deepEqual([view.tools, view.access], [[WALL], "full"]);
    assert.equal((await call(view.key, WALL)).status, 200);
    assert.deepEqual(await call(view.key, INSPECTOR), { status: 404, code: "tool_not_found" });

    const reader = await runCli(["keys", "create", "--plan", "builder", "--access", "read", "--json"], env);
    assert.equal(reader.code, 0, reader.stderr);
    const readView = JSON.parse(reader.stdout) as { key: string; tools: null; access: string };
    assert.deepEqual([readView.tools, readView.access], [null, "read"]);
    assert.deepEqual(await call(readView.key, WALL), { status: 403, code: "key_read_only" });
  });

  it("updates a key's tools and access, and gives every tool back with --tools all", async () => {
    const created = JSON.parse(
      (await runCli(["keys", "create", "--plan", "builder", "--json"], env)).stdout,
    ) as {
      id: string;
      key: string;
    };
    const narrowed = await runCli(
      ["keys", "update", created.id, "--tools", `${INSPECTOR},${WALL}`, "--access", "read", "--json"],
      env,
    );
    assert.equal(narrowed.code, 0, narrowed.stderr);
    const view = JSON.parse(narrowed.stdout) as { tools: string[]; access: string };
    assert.deepEqual([view.tools, view.access], [[INSPECTOR, WALL], "read"]);
    assert.deepEqual(await call(created.key, WALL), { status: 403, code: "key_read_only" });

    const whole = await runCli(
      ["keys", "update", created.id, "--tools", "all", "--access", "full", "--json"],
      env,
    );
    assert.equal(whole.code, 0, whole.stderr);
    const wholeView = JSON.parse(whole.stdout) as { tools: null; access: string };
    assert.deepEqual([wholeView.tools, wholeView.access], [null, "full"]);
    assert.equal((await call(created.key, WALL)).status, 200);
  });

  it("takes the words of keys update: --credits plan and --expires never", async () => {
    const created = await runCli(
      ["keys", "create", "--plan", "free", "--credits", "50", "--expires", "2030-01-01T00:00:00Z", "--json"],
      env,
    );
    const { id } = JSON.parse(created.stdout) as { id: string };
    const back = await runCli(
      ["keys", "update", id, "--credits", "plan", "--expires", "never", "--json"],
      env,
    );
    assert.equal(back.code, 0, back.stderr);
    const view = JSON.parse(back.stdout) as {
      own_monthly_allowance: number | null;
      expires_at: string | null;
    };
    assert.deepEqual([view.own_monthly_allowance, view.expires_at], [null, null]);
  });

  it("refuses an unknown slug naming tools, and an access that is neither full nor read, making no key", async () => {
    const before = (JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout) as unknown[]).length;
    const unknown = await runCli(["keys", "create", "--plan", "free", "--tools", `${WALL},nope`], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /\(tools must name tools this service has; unknown: nope\)/);
    const access = await runCli(["keys", "create", "--plan", "free", "--access", "write"], env);
    assert.equal(access.code, 1);
    assert.match(access.stderr, /\(access must be one of: full, read\)/);
    const after = (JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout) as unknown[]).length;
    assert.equal(after, before);
  });
});
