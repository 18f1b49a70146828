/**
 * A tool with effects outside (the example's create-ticket, an HTTP POST to the loopback upstream)
 * once its request has gone upstream: it runs to its end and is charged whatever its client does
 * (hangs up, over HTTP or MCP, with an Idempotency-Key or without), and a store that stalls or is
 * locked while the call is captured makes the call wait for it, then answer 200 charged once,
 * instead of answering 503 with the effect given away. On every store.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { outwardKeyOf } from "../../src/core/call/idempotency.ts";
import type { Store } from "../../src/ports/store.ts";
import { tools as builtIns } from "../../src/tools/index.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { bearer, json, type TestLifetime, untilSuiteEnds } from "../helpers/app.ts";
import { loadOperatorTools } from "../helpers/operator-tools.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { storesToTest } from "../helpers/stores.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { refusingOrigin, startUpstream, type TestUpstream } from "../helpers/upstream.ts";
import { type ListeningApp, startMcpApp } from "../mcp/helpers.ts";

const TICKET = { title: "Printer on fire" };

/** The app on `store`, listening, with the operator's tools bound to `upstream`. */
async function appOn(
  store: Store,
  upstream: TestUpstream,
  lifetime: TestLifetime,
  migrate = true,
): Promise<ListeningApp> {
  const loadedTools = await loadOperatorTools(upstream.origin, await refusingOrigin());
  return startMcpApp({ tools: builtIns, loadedTools, store, migrate }, lifetime);
}

/** Polls the key's usage until its newest call is no longer pending: [status, http status, credits]. */
async function settledCall(t: ListeningApp, key: string): Promise<unknown[]> {
  for (;;) {
    const usage = (await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })).json();
    const [call] = usage.recent as Record<string, unknown>[];
    if (call && call.status !== "pending") {
      assert.equal(usage.credits_used, call.credits);
      return [call.status, call.http_status, call.credits];
    }
    await sleep(5);
  }
}

/** Sends `body` to `path` over a real connection, and closes it once the upstream holds the call. */
async function hangUpDuring(
  t: ListeningApp,
  upstream: TestUpstream,
  path: string,
  headers: Record<string, string>,
  body: unknown,
) {
  const base = new URL(t.base);
  const held = upstream.hold();
  const request = httpRequest({
    host: base.hostname,
    port: base.port,
    method: "POST",
    path,
    headers: { ...json(), accept: "application/json, text/event-stream", ...headers },
  });
  request.on("error", () => {});
  request.end(JSON.stringify(body));
  await held.held(1);
  request.destroy();
  // The server sees the connection close before the upstream answers.
  await sleep(50);
  held.release();
}

for (const { name, make } of storesToTest()) {
  describe(`a tool with effects outside whose client hangs up (${name})`, () => {
    const lifetime = untilSuiteEnds();
    let upstream: TestUpstream;
    let t: ListeningApp;
    /** What one create-ticket call costs a free key. */
    let price: number;

    before(async () => {
      upstream = await startUpstream();
      t = await appOn(await make(), upstream, lifetime);
      const key = await t.key("free");
      const paid = await t.app.inject({
        method: "POST",
        url: "/v1/tool/create-ticket",
        headers: json(bearer(key)),
        payload: JSON.stringify(TICKET),
      });
      assert.equal(paid.statusCode, 200, paid.body);
      price = paid.json().credits_used;
      assert.ok(price > 0);
    });
    after(() => upstream.close());

    it("over HTTP: runs to the upstream's answer and is charged", async () => {
      const key = await t.key("free");
      const abandoned = upstream.abandoned();
      const received = upstream.requests.length;
      await hangUpDuring(t, upstream, "/v1/tool/create-ticket", bearer(key), TICKET);
      assert.deepEqual(await settledCall(t, key), ["charged", 200, price]);
      assert.equal(upstream.requests.length, received + 1);
      assert.equal(upstream.abandoned(), abandoned, "the upstream request was cut");
    });

    it("over HTTP with an Idempotency-Key: charged once, and the retry gets its answer without acting again", async () => {
      const key = await t.key("free");
      const headers = { ...bearer(key), "idempotency-key": "hang-up" };
      await hangUpDuring(t, upstream, "/v1/tool/create-ticket", headers, TICKET);
      assert.deepEqual(await settledCall(t, key), ["charged", 200, price]);
      const retry = await t.app.inject({
        method: "POST",
        url: "/v1/tool/create-ticket",
        headers: json(headers),
        payload: JSON.stringify(TICKET),
      });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers["idempotent-replayed"], "true");
      assert.equal(upstream.callsFor(outwardKeyOf((await t.recordOf(key)).accountId, "hang-up")), 1);
      assert.deepEqual(await settledCall(t, key), ["charged", 200, price]);
    });

    it("over MCP: runs to the upstream's answer and is charged", async () => {
      const key = await t.key("free");
      const received = upstream.requests.length;
      await hangUpDuring(t, upstream, "/mcp", bearer(key), {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "create-ticket", arguments: TICKET },
      });
      assert.deepEqual(await settledCall(t, key), ["charged", 200, price]);
      assert.equal(upstream.requests.length, received + 1);
    });
  });
}

/** Posts a ticket once the upstream holds it, runs `during`, lets the upstream answer, and returns the answer. */
async function captureDuring(
  t: ListeningApp,
  upstream: TestUpstream,
  key: string,
  fault: { start(): void | Promise<void>; end(): void | Promise<void> },
) {
  const held = upstream.hold();
  let answered = false;
  const answer = t.app
    .inject({
      method: "POST",
      url: "/v1/tool/create-ticket",
      headers: json(bearer(key)),
      payload: JSON.stringify(TICKET),
    })
    .finally(() => {
      answered = true;
    });
  await held.held(1);
  await fault.start();
  held.release();
  // Long past the store's timeout: several attempts at the capture fail meanwhile.
  await sleep(1_000);
  assert.equal(answered, false, "the call answered while its capture could not commit");
  await fault.end();
  return answer;
}

describe("a tool with effects outside whose capture meets a locked SQLite file", () => {
  const lifetime = untilSuiteEnds();
  let upstream: TestUpstream;
  let t: ListeningApp;
  let other: DatabaseSync;
  const dir = mkdtempSync(join(tmpdir(), "toolrun-effects-"));

  before(async () => {
    upstream = await startUpstream();
    const path = join(dir, "toolrun.db");
    t = await appOn(createSqliteStore(path, { busyTimeoutMs: 0, lockWaitMs: 100 }), upstream, lifetime);
    other = new DatabaseSync(path);
    other.exec("PRAGMA busy_timeout = 0");
  });
  after(async () => {
    other.close();
    await upstream.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("waits for the lock, then answers 200 charged once (not 503 with the effect given away)", async () => {
    const key = await t.key("free");
    const answer = await captureDuring(t, upstream, key, {
      start: () => other.exec("BEGIN IMMEDIATE"),
      end: () => other.exec("COMMIT"),
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(await settledCall(t, key), ["charged", 200, answer.json().credits_used]);
  });
});

const database = testDatabaseUrl();
describe("a tool with effects outside whose capture meets a PostgreSQL stall", {
  skip: database.skip,
}, () => {
  const lifetime = untilSuiteEnds();
  let upstream: TestUpstream;
  let t: ListeningApp;
  let proxy: TcpProxy;
  const schema = uniqueSchema();

  before(async () => {
    const url = new URL(database.url ?? "");
    upstream = await startUpstream();
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    // Migrated directly: through the proxy, only the calls meet the short timeout.
    const direct = await createPostgresStore({ url: url.href, schema, keyCache: false });
    await direct.migrate();
    await direct.close();
    url.host = `127.0.0.1:${proxy.port}`;
    const store = await createPostgresStore({
      url: url.href,
      schema,
      queryTimeoutMs: 300,
      connectTimeoutMs: 300,
      keyCache: false,
    });
    t = await appOn(store, upstream, lifetime, false);
  });
  after(async () => {
    proxy.release();
    await upstream.close();
    await t.close();
    await proxy.close();
    if (database.url) await dropSchema(database.url, schema);
  });

  it("waits for the database, then answers 200 charged once (not 503 with the effect given away)", async () => {
    const key = await t.key("free");
    const answer = await captureDuring(t, upstream, key, {
      start: async () => {
        const settle = proxy.freezeOn("toolrun_ledger_settle", "request");
        // Everything stalls from the capture on, its retries' connections too.
        void settle.then(() => proxy.freeze());
      },
      end: () => proxy.release(),
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(await settledCall(t, key), ["charged", 200, answer.json().credits_used]);
  });
});
