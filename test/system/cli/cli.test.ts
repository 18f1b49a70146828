/**
 * Drives the built CLI as an operator would: keys on the command line, then real HTTP calls on
 * a started server with those keys.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";

describe("toolrun CLI", () => {
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("creates a key as JSON, and a started server accepts it", async () => {
    const created = await runCli(
      ["keys", "create", "--plan", "builder", "--name", "ci", "--credits", "50", "--json"],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(key).sort(), [
      "access",
      "account_id",
      "created_at",
      "expires_at",
      "id",
      "key",
      "metadata",
      "monthly_allowance",
      "name",
      "own_monthly_allowance",
      "plan",
      "prefix",
      "previous_prefix",
      "previous_secret_expires_at",
      "revoked_at",
      "status",
      "tools",
    ]);
    assert.equal(key.plan, "builder");
    assert.equal(key.name, "ci");
    assert.equal(key.monthly_allowance, 50);
    assert.match(key.key, /^tr_live_[0-9A-Za-z]{32}$/);

    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess(env);
      // The store was not empty, so no bootstrap key is printed.
      assert.doesNotMatch(server.output(), /bootstrap/);
      const res = await fetch(`${server.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${key.key}` },
      });
      assert.equal(res.status, 200);
      const credits = (await res.json()) as { plan: string; credits_remaining: number };
      assert.equal(credits.plan, "builder");
      assert.equal(credits.credits_remaining, 50);

      const listed = await runCli(["keys", "list", "--json"], env);
      assert.equal(listed.code, 0);
      assert.doesNotMatch(listed.stdout, new RegExp(key.key));
      assert.equal(JSON.parse(listed.stdout)[0].id, key.id);

      const rotated = await runCli(["keys", "rotate", key.id, "--json"], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      const newKey = JSON.parse(rotated.stdout).key;
      const old = await fetch(`${server.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${key.key}` },
      });
      assert.equal(old.status, 401);
      const fresh = await fetch(`${server.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${newKey}` },
      });
      assert.equal(fresh.status, 200);

      assert.equal((await runCli(["keys", "set-plan", key.id, "free"], env)).code, 0);
      const replanned = await fetch(`${server.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${newKey}` },
      });
      assert.equal(((await replanned.json()) as { plan: string }).plan, "free");

      const revoked = await runCli(["keys", "revoke", key.id], env);
      assert.equal(revoked.code, 0);
      const gone = await fetch(`${server.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${newKey}` },
      });
      assert.equal(gone.status, 401);
      assert.equal((await runCli(["keys", "revoke", key.id], env)).code, 1);
    } finally {
      assert.equal(await server?.stop(), 0);
    }
  });

  it("prints a bootstrap key with a curl line on first start of an empty store", async () => {
    const fresh = { TOOLRUN_DATABASE: join(dir, "empty.db") };
    const server = await startServerProcess(fresh);
    try {
      const key = /(tr_live_[0-9A-Za-z]{32})/.exec(server.output())?.[1];
      assert.ok(key, server.output());
      assert.match(server.output(), /curl -s .*\/v1\/tool\//);
      const res = await fetch(`${server.url}/v1/tools/list`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      const listed = JSON.parse((await runCli(["keys", "list", "--json"], fresh)).stdout);
      assert.equal(listed.length, 1);
      assert.equal(listed[0].name, "bootstrap");
      assert.equal(listed[0].plan, "free");
    } finally {
      await server.stop();
    }
  });

  it("switches a tool off for a running server within seconds", async () => {
    const created = JSON.parse((await runCli(["keys", "create", "--plan", "free", "--json"], env)).stdout);
    const server = await startServerProcess(env);
    try {
      const list = async () => {
        const res = await fetch(`${server.url}/v1/tools/list`, {
          headers: { authorization: `Bearer ${created.key}` },
        });
        return ((await res.json()) as { tools: { slug: string; enabled: boolean }[] }).tools;
      };
      const slug = (await list())[0]?.slug;
      assert.ok(slug, "at least one tool is registered");
      const set = await runCli(["tools", "set", slug, "--enabled", "false"], env);
      assert.equal(set.code, 0, set.stderr);
      const deadline = Date.now() + 10_000;
      let call: Response;
      do {
        await new Promise((r) => setTimeout(r, 200));
        call = await fetch(`${server.url}/v1/tool/${slug}`, {
          method: "POST",
          headers: { authorization: `Bearer ${created.key}`, "content-type": "application/json" },
          body: "{}",
        });
      } while (call.status !== 503 && Date.now() < deadline);
      assert.equal(call.status, 503);
      assert.equal(((await call.json()) as { code: string }).code, "tool_disabled");
      assert.equal((await runCli(["tools", "set", slug, "--enabled", "true"], env)).code, 0);
    } finally {
      await server.stop();
    }
  });

  it("explains usage mistakes and bad configuration with exit code 2", async () => {
    const noPlan = await runCli(["keys", "create"], env);
    assert.equal(noPlan.code, 2);
    assert.match(noPlan.stderr, /--plan/);
    const badPlan = await runCli(["keys", "create", "--plan", "gold"], env);
    assert.equal(badPlan.code, 1);
    assert.match(badPlan.stderr, /Unknown plan\. \(plan must be one of: free, builder\)/);
    const badExpiry = await runCli(["keys", "create", "--plan", "free", "--expires", "soon"], env);
    assert.equal(badExpiry.code, 1);
    assert.match(badExpiry.stderr, /^toolrun: The new key is invalid\. \(expires_at must match the pattern/);
    const missing = await runCli(["keys", "grant", "key_missing", "5"], env);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, "toolrun: No key has this id.\n");
    const badEnv = await runCli(["keys", "list"], { ...env, PORT: "http", TOOLRUN_METERING: "maybe" });
    assert.equal(badEnv.code, 2);
    assert.match(badEnv.stderr, /PORT/);
    assert.match(badEnv.stderr, /TOOLRUN_METERING/);
    const unknown = await runCli(["frobnicate"], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  });
});
