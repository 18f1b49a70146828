/**
 * `toolrun keys rotate ID --grace DURATION` against a running server: the old and the new secret
 * both work until the grace ends, then the old one answers 401 `invalid_api_key`; `keys list`
 * shows the grace (table and JSON); a duration that is not one from 1 s to 7 days is refused
 * naming `--grace`, and rotates nothing.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { bothWorkUntil, credits, pastEnd } from "../../helpers/grace.ts";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";

/** Long enough for a loaded machine to ask both secrets before it ends. */
const GRACE = "6s";

describe("toolrun keys rotate --grace", () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-grace-"));
    server = await startServerProcess(env);
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function createKey(): Promise<{ id: string; key: string }> {
    const created = await runCli(["keys", "create", "--plan", "free", "--json"], env);
    assert.equal(created.code, 0, created.stderr);
    return JSON.parse(created.stdout);
  }

  it("keeps the old secret working beside the new one until the grace ends, then refuses it", async () => {
    const { id, key: old } = await createKey();
    const rotated = await runCli(["keys", "rotate", id, "--grace", GRACE, "--json"], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const view = JSON.parse(rotated.stdout) as {
      key: string;
      previous_prefix: string;
      previous_secret_expires_at: string;
    };
    const end = view.previous_secret_expires_at;
    assert.equal(view.previous_prefix, old.slice(0, 12));
    await bothWorkUntil(end, [server.url], [old, view.key]);

    const listed = await runCli(["keys", "list", "--json"], env);
    const mine = (JSON.parse(listed.stdout) as { id: string; previous_secret_expires_at: string }[]).find(
      (k) => k.id === id,
    );
    assert.equal(mine?.previous_secret_expires_at, end);
    const table = await runCli(["keys", "list"], env);
    assert.match(table.stdout.split("\n")[0] ?? "", /OLD SECRET UNTIL$/);
    assert.ok(
      table.stdout.split("\n").some((line) => line.startsWith(id) && line.endsWith(end)),
      table.stdout,
    );

    await pastEnd(end);
    const refused = await credits(server.url, old);
    assert.equal(refused.status, 401);
    assert.match(refused.detail ?? "", new RegExp(`rotated; this old secret stopped working at ${end}`));
    assert.equal((await credits(server.url, view.key)).status, 200);
  });

  it("says when the old secret stops working, in words", async () => {
    const { id, key: old } = await createKey();
    const rotated = await runCli(["keys", "rotate", id, "--grace", "24h"], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(
      rotated.stdout,
      new RegExp(
        `^New secret for ${id}; the old one \\(${old.slice(0, 12)}…\\) works until \\S+Z\\. Shown only this once:`,
      ),
    );
  });

  it("refuses a duration that is not 1s to 7d, naming --grace, and rotates nothing", async () => {
    const { id, key } = await createKey();
    for (const grace of ["0s", "8d", "abc", "-5m", "1.5h", "30", "604801s"]) {
      const result = await runCli(["keys", "rotate", id, `--grace=${grace}`], env);
      assert.equal(result.code, 2, `--grace ${grace}: ${result.stdout}`);
      assert.match(result.stderr, /--grace/);
      assert.match(result.stderr, /from 1s to 7d/);
      assert.equal(result.stdout, "");
    }
    const separate = await runCli(["keys", "rotate", id, "--grace", "-5m"], env);
    assert.equal(separate.code, 2);
    assert.match(separate.stderr, /--grace/);
    assert.equal((await credits(server.url, key)).status, 200, "the key still has its secret");
  });
});
