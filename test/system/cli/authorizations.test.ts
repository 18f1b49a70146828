/**
 * An OAuth authorization's id as the CLI shows it can be passed back to the CLI: the library's own
 * ids are base64url and one in 64 begins with "-", which a command line reads as an option.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli } from "../../helpers/process.ts";

describe("toolrun keys authorizations and deauthorize", () => {
  let dir: string;
  let env: Record<string, string>;
  let keyId: string;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-cli-authorizations-"));
    const created = await runCli(["keys", "create", "--plan", "free", "--json"], env);
    assert.equal(created.code, 0, created.stderr);
    keyId = JSON.parse(created.stdout).id;
    // What a consent leaves behind, written as the store writes it: a library grant id that
    // begins with "-", bound to the key's current secret.
    const db = new DatabaseSync(env.TOOLRUN_DATABASE ?? "");
    try {
      db.prepare(
        `INSERT INTO oauth_authorizations
           (id, key_id, client_id, client_name, key_secret_hash, payload, created_at, expires_at)
         SELECT '-3K4M51VBk2AjgyBJDH-qI', id, 'client-1', 'Dash client', secret_hash, '{}',
                '2026-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z'
         FROM api_keys WHERE id = ?`,
      ).run(keyId);
    } finally {
      db.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("lists an id that never reads as an option, and revokes by it", async () => {
    const listed = await runCli(["keys", "authorizations", keyId, "--json"], env);
    assert.equal(listed.code, 0, listed.stderr);
    const parsed = JSON.parse(listed.stdout) as { id: string }[];
    assert.ok(Array.isArray(parsed), "a JSON array, as every list command prints");
    const [authorization] = parsed;
    assert.ok(authorization);
    assert.doesNotMatch(authorization.id, /^-/);

    const revoked = await runCli(["keys", "deauthorize", keyId, authorization.id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /Revoked OAuth authorization/);
    const after = JSON.parse((await runCli(["keys", "authorizations", keyId, "--json"], env)).stdout);
    assert.deepEqual(after, []);
  });
});
