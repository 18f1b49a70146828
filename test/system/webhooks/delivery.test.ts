/**
 * Webhooks with real servers, the CLI and a receiver that checks each delivery with the
 * `standardwebhooks` library:
 * - SQLite: a key revoked by `toolrun keys revoke` while the server runs, the server killed with
 *   SIGKILL right after and the receiver not yet up: the event, written with the revocation, is
 *   delivered once a server runs again;
 * - PostgreSQL: two instances on one schema deliver each of many events exactly once.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createPostgresStore } from "../../../src/adapters/postgres/index.ts";
import { webhookEvent } from "../../../src/core/kernel/webhook-events.ts";
import { dropSchema, uniqueSchema } from "../../adapters/postgres-fixture.ts";
import { newKey } from "../../contracts/store.contract.ts";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { startReceiver, verified, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";

/** Retries come fast, so a test waits seconds, not minutes. */
const FAST = { TOOLRUN_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s" };

async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const run = await runCli(args, env);
  assert.equal(run.code, 0, `toolrun ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/** Waits, polling, until `done` holds; fails after `ms`. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function newKeyId(env: Record<string, string>): Promise<string> {
  return JSON.parse(await cli(["keys", "create", "--plan", "free", "--json"], env)).id;
}

describe("webhooks on SQLite: an event survives a SIGKILL", () => {
  it("delivers key.revoked after a restart, signed", async () => {
    const { dir, env: base } = await migratedDatabase("toolrun-webhooks-");
    after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { ...base, ...FAST };
    // Nothing listens on the receiver's port yet: the first server cannot deliver.
    const port = await freePort();
    const created = JSON.parse(
      await cli(
        [
          "webhooks",
          "create",
          "--url",
          `http://127.0.0.1:${port}/hooks`,
          "--events",
          "key.revoked",
          "--json",
        ],
        env,
      ),
    ) as { id: string; secret: string };
    assert.match(created.secret, /^whsec_/);
    const keyId = await newKeyId(env);

    let server: ServerProcess | undefined = await startServerProcess(env);
    let receiver: WebhookReceiver | undefined;
    try {
      await cli(["keys", "revoke", keyId], env);
      assert.equal(await server.stop("SIGKILL"), null);
      server = undefined;

      receiver = await startReceiver(port);
      server = await startServerProcess(env);
      const got = receiver;
      await until(() => got.received.length > 0, 30_000, "the delivery");
      const body = verified(created.secret, got.received[0] as never);
      assert.equal(body.type, "key.revoked");
      assert.equal(body.data.key_id, keyId);
      const listed = JSON.parse(await cli(["webhooks", "deliveries", created.id, "--json"], env));
      const [delivery] = listed.deliveries;
      assert.equal(delivery.event_id, got.received[0]?.headers["webhook-id"]);
      assert.ok(["delivered", "pending"].includes(delivery.state));
      // The attempts before the receiver was up failed with no connection, and were retried.
      for (const attempt of delivery.attempt_log.slice(0, -1))
        assert.match(attempt.error ?? "", /connection refused/);
    } finally {
      await server?.stop();
      await receiver?.close();
    }
  });

  it("manages endpoints from the CLI, audited, refusing bad input with exit 2", async () => {
    const { dir, env } = await migratedDatabase("toolrun-webhooks-cli-");
    after(() => rmSync(dir, { recursive: true, force: true }));
    const created = JSON.parse(
      await cli(
        [
          "webhooks",
          "create",
          "--url",
          "https://hooks.example.com/t",
          "--events",
          "key.revoked,webhook.test",
          "--events",
          "credits.threshold",
          "--description",
          "ops",
          "--json",
        ],
        env,
      ),
    );
    assert.deepEqual(created.events, ["key.revoked", "webhook.test", "credits.threshold"]);
    const listed = await cli(["webhooks", "list"], env);
    assert.match(listed, new RegExp(created.id));
    assert.doesNotMatch(listed, /whsec_/);
    assert.match(await cli(["webhooks", "update", created.id, "--disable"], env), /Updated/);
    const shown = JSON.parse(await cli(["webhooks", "show", created.id], env));
    assert.equal(shown.secret, undefined);
    assert.equal(shown.enabled, false);
    assert.match(await cli(["webhooks", "test", created.id], env), /disabled/);
    await cli(["webhooks", "update", created.id, "--enable"], env);
    assert.match(await cli(["webhooks", "test", created.id], env), /Queued test event evt_/);
    const page = JSON.parse(await cli(["webhooks", "deliveries", created.id, "--json"], env));
    assert.equal(page.deliveries[0].event_type, "webhook.test");
    assert.match(await cli(["webhooks", "retry", created.id, page.deliveries[0].id], env), /is due now/);
    const bad = await runCli(["webhooks", "create", "--url", "ftp://x", "--events", "key.revoked"], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /url/);
    const missing = await runCli(["webhooks", "show", "whe_missing"], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No webhook endpoint has this id/);
    await cli(["webhooks", "delete", created.id], env);
    assert.match(await cli(["webhooks", "list"], env), /No webhook endpoints yet/);
  });
});

const database = testDatabaseUrl();

describe("webhooks on PostgreSQL: two instances", { skip: database.skip }, () => {
  it("deliver each event exactly once", async () => {
    const url = database.url ?? "";
    const schema = uniqueSchema();
    after(() => dropSchema(url, schema));
    const env = { TOOLRUN_DATABASE: url, TOOLRUN_DATABASE_SCHEMA: schema, ...FAST };
    await cli(["migrate"], env);
    const receiver = await startReceiver();
    const created = JSON.parse(
      await cli(["webhooks", "create", "--url", receiver.url, "--events", "key.revoked", "--json"], env),
    ) as { id: string; secret: string };
    // The events are written as revocations write them, by a store of the test's own.
    const store = await createPostgresStore({ url, schema, keyCache: false });
    const servers = [await startServerProcess(env), await startServerProcess(env)];
    try {
      await Promise.all(
        Array.from({ length: 23 }, async () => {
          const key = newKey();
          await store.createKey(key);
          const now = new Date();
          const event = webhookEvent("key.revoked", { key_id: key.id, revoked_at: now.toISOString() }, now);
          assert.equal(await store.revokeKey(key.id, now.toISOString(), undefined, [event]), true);
        }),
      );
      await until(() => receiver.received.length >= 23, 60_000, "23 deliveries");
      // Long enough for a second delivery of any of them to arrive, were there one.
      await sleep(3000);
      const ids = receiver.received.map((r) => String(r.headers["webhook-id"]));
      assert.equal(ids.length, 23);
      assert.equal(new Set(ids).size, 23);
      for (const delivery of receiver.received)
        assert.equal(verified(created.secret, delivery).type, "key.revoked");
    } finally {
      for (const server of servers) await server.stop();
      await receiver.close();
      await store.close();
    }
  });
});
