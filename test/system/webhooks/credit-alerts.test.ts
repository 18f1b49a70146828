/**
 * Credit alerts with real servers, the CLI and a receiver that checks each delivery with the
 * `standardwebhooks` library:
 * - SQLite: an account's calls cross its thresholds while refunded calls make its use hover
 *   around one, then run out; the server is killed with SIGKILL right after the call that reaches
 *   100 %, the receiver not yet up: every event, written with its call, is delivered once after a
 *   restart, each threshold once, the month's first refusal once;
 * - PostgreSQL: two instances taking one account's calls at once deliver each event exactly once.
 * (Retries with the same webhook-id and a 410 turning an endpoint off are pinned by
 * test/admin/webhooks.test.ts.)
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { dropSchema, uniqueSchema } from "../../adapters/postgres-fixture.ts";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { startReceiver, verified, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";

/** Retries come fast, so a test waits seconds, not minutes. */
const FAST = { TOOLRUN_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s" };
/** The inspector costs 5 credits a call on the free plan. */
const TOOL = "webhook-payload-inspector";
const COST = 5;

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

/**
 * One call of the inspector: `ok` runs and is charged; otherwise an empty payload, which the tool
 * refuses with 422, sent with an Idempotency-Key so that its credits are held while it runs and
 * then given back (use goes up, then down again).
 */
async function call(server: ServerProcess, key: string, ok = true): Promise<number> {
  const response = await fetch(`${server.url}/v1/tool/${TOOL}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      ...(ok ? {} : { "idempotency-key": crypto.randomUUID() }),
    },
    body: JSON.stringify({ payload: ok ? '{"type":"ping"}' : " " }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** An account of one key on the free plan with its own allowance: the key and the account's id. */
async function account(env: Record<string, string>, credits: number) {
  const made = JSON.parse(
    await cli(["keys", "create", "--plan", "free", "--credits", String(credits), "--json"], env),
  ) as { key: string; account_id: string };
  return { key: made.key, accountId: made.account_id };
}

async function endpoint(env: Record<string, string>, url: string) {
  return JSON.parse(
    await cli(
      ["webhooks", "create", "--url", url, "--events", "credits.threshold,credits.depleted", "--json"],
      env,
    ),
  ) as { id: string; secret: string };
}

/** What the receiver got, checked, as `type kind:value` lines (`credits.depleted` alone). */
function received(receiver: WebhookReceiver, secret: string): string[] {
  return receiver.received.map((delivery) => {
    const { type, data } = verified(secret, delivery);
    const threshold = data.threshold as { kind: string; value: number } | undefined;
    return threshold ? `${type} ${threshold.kind}:${threshold.value}` : type;
  });
}

describe("credit alerts on SQLite: thresholds and depletion survive a SIGKILL", () => {
  it("delivers each threshold once while use hovers, and the month's first refusal once", async () => {
    const { dir, env: base } = await migratedDatabase("toolrun-alerts-");
    after(() => rmSync(dir, { recursive: true, force: true }));
    const env = { ...base, ...FAST };
    // Nothing listens on the receiver's port yet: the first server cannot deliver.
    const port = await freePort();
    const hook = await endpoint(env, `http://127.0.0.1:${port}/hooks`);
    const { key, accountId } = await account(env, 4 * COST);
    await cli(["accounts", "update", accountId, "--alerts-used", "50,100"], env);

    let server: ServerProcess | undefined = await startServerProcess(env);
    let receiver: WebhookReceiver | undefined;
    try {
      assert.equal(await call(server, key), 200);
      // Held to 50 % while it runs, then refunded: the threshold fires once, and not again when
      // use comes back to it.
      assert.equal(await call(server, key, false), 422);
      assert.equal(await call(server, key, false), 422);
      for (let i = 0; i < 3; i++) assert.equal(await call(server, key), 200);
      assert.equal(await server.stop("SIGKILL"), null);
      server = undefined;

      receiver = await startReceiver(port);
      server = await startServerProcess(env);
      assert.equal(await call(server, key), 402);
      assert.equal(await call(server, key), 402);
      const got = receiver;
      await until(() => got.received.length >= 3, 30_000, "3 deliveries");
      // Long enough for a second delivery of any of them to arrive, were there one.
      await sleep(3000);
      assert.deepEqual(received(got, hook.secret).sort(), [
        "credits.depleted",
        "credits.threshold used_percent:100",
        "credits.threshold used_percent:50",
      ]);
      const ids = got.received.map((r) => String(r.headers["webhook-id"]));
      assert.equal(new Set(ids).size, 3);
      const full = got.received
        .map((delivery) => verified(hook.secret, delivery))
        .find((body) => (body.data.threshold as { value: number } | undefined)?.value === 100);
      assert.deepEqual(full?.data, {
        account_id: accountId,
        period: new Date().toISOString().slice(0, 7),
        threshold: { kind: "used_percent", value: 100 },
        used: 4 * COST,
        allowance: 4 * COST,
        remaining: 0,
      });
    } finally {
      await server?.stop();
      await receiver?.close();
    }
  });
});

const database = testDatabaseUrl();

describe("credit alerts on PostgreSQL: two instances", { skip: database.skip }, () => {
  it("deliver each threshold and the depletion exactly once", async () => {
    const url = database.url ?? "";
    const schema = uniqueSchema();
    after(() => dropSchema(url, schema));
    const env = { TOOLRUN_DATABASE: url, TOOLRUN_DATABASE_SCHEMA: schema, ...FAST };
    await cli(["migrate"], env);
    const receiver = await startReceiver();
    const hook = await endpoint(env, receiver.url);
    const { key } = await account(env, 20 * COST);
    const servers = [await startServerProcess(env), await startServerProcess(env)];
    try {
      const statuses = await Promise.all(
        Array.from({ length: 24 }, (_, i) => call(servers[i % 2] as ServerProcess, key)),
      );
      assert.deepEqual(
        [statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 402).length],
        [20, 4],
      );
      await until(() => receiver.received.length >= 3, 60_000, "3 deliveries");
      await sleep(3000);
      assert.deepEqual(received(receiver, hook.secret).sort(), [
        "credits.depleted",
        "credits.threshold used_percent:100",
        "credits.threshold used_percent:80",
      ]);
    } finally {
      for (const server of servers) await server.stop();
      await receiver.close();
    }
  });
});
