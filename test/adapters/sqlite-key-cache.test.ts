/**
 * The SQLite store remembers found keys, yet a change made by another process (the CLI, here a
 * second connection to the same file) is seen by every lookup from the next turn of the event
 * loop, the first a request arriving after the change can reach: the key cache's contract over the
 * `PRAGMA data_version` signal (key-changes.ts), and a revocation met by the next request of a
 * kept-alive connection.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, get } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createAccountStore } from "../../src/adapters/sqlite/accounts.ts";
import { createAudited } from "../../src/adapters/sqlite/audit.ts";
import { openDb } from "../../src/adapters/sqlite/db.ts";
import { createKeyChanges } from "../../src/adapters/sqlite/key-changes.ts";
import { createKeyStore } from "../../src/adapters/sqlite/keys.ts";
import { createOAuthStore } from "../../src/adapters/sqlite/oauth.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { newKey } from "../contracts/store.contract.ts";
import { describeKeyCacheContract } from "../contracts/store-key-cache.contract.ts";

describeKeyCacheContract("sqlite (PRAGMA data_version)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-keycache-"));
  const path = join(dir, "toolrun.db");
  const elsewhere = createSqliteStore(path);
  await elsewhere.migrate();
  const db = openDb(path);
  return {
    keys: { ...createKeyStore(db, createAudited(db)), ...createAccountStore(db, createAudited(db)) },
    oauth: createOAuthStore(db, createAudited(db)),
    changes: createKeyChanges(db.dataVersion),
    elsewhere,
    ready: async () => {},
    // A change committed by another connection is seen from the next turn of the loop.
    changeSeen: async () => {
      await nextTurn();
    },
    async cleanup() {
      db.close();
      await elsewhere.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("sqlite key lookups across processes", () => {
  it("sees a revocation by another connection on the next request of a kept-alive connection", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-keycache-"));
    const path = join(dir, "toolrun.db");
    const server = createSqliteStore(path);
    await server.migrate();
    const cli = createSqliteStore(path);
    t.after(async () => {
      await server.close();
      await cli.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const key = newKey();
    await cli.createKey(key);
    // A bare HTTP server that looks the key up per request, as the front door does.
    const http = createServer(async (_request, response) => {
      const found = await server.findKeyByHash(key.secretHash);
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
    assert.equal(await ask(), "live");
    assert.equal(await cli.revokeKey(key.id, "2026-11-04T00:00:00.000Z"), true);
    assert.equal(await ask(), "revoked");
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
