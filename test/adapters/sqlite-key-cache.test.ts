/**
 * The SQLite store remembers found keys, yet a change made by another process (the CLI, here a
 * second store on the same file) is seen by the very next lookup: revocation and rotation are
 * immediate, as without the cache.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import type { Store } from "../../src/ports/store.ts";

describe("sqlite key lookups across processes", () => {
  let dir: string;
  let server: Store;
  let cli: Store;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-keycache-"));
    const path = join(dir, "toolrun.db");
    server = createSqliteStore(path);
    await server.migrate();
    cli = createSqliteStore(path);
  });
  after(async () => {
    await server.close();
    await cli.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const key = (id: string, secretHash: string) => ({
    id,
    name: "",
    plan: "builder",
    secretHash,
    displayPrefix: "tr_live_abcd",
    monthlyAllowance: null,
    createdAt: "2026-11-01T00:00:00.000Z",
  });

  it("sees a revocation made by another connection on the next lookup", async () => {
    await cli.createKey(key("key_a", "hash_a"));
    assert.equal((await server.findKeyByHash("hash_a"))?.revokedAt, null);
    assert.equal((await server.findKeyByHash("hash_a"))?.revokedAt, null);
    assert.equal(await cli.revokeKey("key_a", "2026-11-02T00:00:00.000Z"), true);
    assert.equal((await server.findKeyByHash("hash_a"))?.revokedAt, "2026-11-02T00:00:00.000Z");
  });

  it("forgets a rotated secret and a changed plan at once", async () => {
    await cli.createKey(key("key_b", "hash_b"));
    assert.equal((await server.findKeyByHash("hash_b"))?.id, "key_b");
    assert.equal(await cli.setPlan("key_b", "free"), true);
    assert.equal((await server.findKeyByHash("hash_b"))?.plan, "free");
    assert.equal(await cli.rotateKey("key_b", "hash_b2", "tr_live_efgh"), true);
    assert.equal(await server.findKeyByHash("hash_b"), null);
    assert.equal((await server.findKeyByHash("hash_b2"))?.id, "key_b");
  });

  it("sees changes made through its own connection at once", async () => {
    await server.createKey(key("key_c", "hash_c"));
    assert.equal((await server.findKeyByHash("hash_c"))?.revokedAt, null);
    await server.revokeKey("key_c", "2026-11-03T00:00:00.000Z");
    assert.equal((await server.findKeyByHash("hash_c"))?.revokedAt, "2026-11-03T00:00:00.000Z");
  });
});
