/**
 * The SQLite store remembers found keys, yet a change made by another process (the CLI, here a
 * second store on the same file) is seen by every lookup from the next turn of the event loop, the
 * first a request arriving after the change can reach: revocation and rotation are immediate, as
 * without the cache.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, get } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
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
    expiresAt: null,
    metadata: {},
  });

  it("sees a revocation made by another connection from the next turn of the event loop", async () => {
    await cli.createKey(key("key_a", "hash_a"));
    await nextTurn();
    assert.equal((await server.findKeyByHash("hash_a"))?.revokedAt, null);
    await nextTurn();
    assert.equal((await server.findKeyByHash("hash_a"))?.revokedAt, null);
    assert.equal(await cli.revokeKey("key_a", "2026-11-02T00:00:00.000Z"), true);
    await nextTurn();
    assert.equal((await server.findKeyByHash("hash_a"))?.revokedAt, "2026-11-02T00:00:00.000Z");
  });

  it("forgets a rotated secret and a changed plan from the next turn", async () => {
    await cli.createKey(key("key_b", "hash_b"));
    await nextTurn();
    assert.equal((await server.findKeyByHash("hash_b"))?.id, "key_b");
    assert.equal(await cli.updateKey("key_b", { plan: "free" }), true);
    await nextTurn();
    assert.equal((await server.findKeyByHash("hash_b"))?.plan, "free");
    assert.equal(await cli.rotateKey("key_b", "hash_b2", "tr_live_efgh"), true);
    await nextTurn();
    assert.equal(await server.findKeyByHash("hash_b"), null);
    assert.equal((await server.findKeyByHash("hash_b2"))?.id, "key_b");
  });

  it("sees a revocation by another connection on the next request of a kept-alive connection", async (t) => {
    await cli.createKey(key("key_d", "hash_d"));
    // A bare HTTP server that looks the key up per request, as the front door does.
    const http = createServer(async (_request, response) => {
      const found = await server.findKeyByHash("hash_d");
      response.end(found?.revokedAt === null ? "live" : "revoked");
    });
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    t.after(() => {
      agent.destroy();
      http.close();
    });
    const { port } = http.address() as AddressInfo;
    const ask = () => fetchText(`http://127.0.0.1:${port}/`, agent);
    assert.equal(await ask(), "live");
    assert.equal(await cli.revokeKey("key_d", "2026-11-04T00:00:00.000Z"), true);
    assert.equal(await ask(), "revoked");
  });

  it("sees changes made through its own connection at once", async () => {
    await server.createKey(key("key_c", "hash_c"));
    assert.equal((await server.findKeyByHash("hash_c"))?.revokedAt, null);
    await server.revokeKey("key_c", "2026-11-03T00:00:00.000Z");
    assert.equal((await server.findKeyByHash("hash_c"))?.revokedAt, "2026-11-03T00:00:00.000Z");
  });
});

/** The body of a GET through `agent`. */
function fetchText(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve(body));
    }).on("error", reject);
  });
}
