/**
 * The PostgreSQL ledger's batch of calls (`toolrun_calls`): whichever way it records a batch
 * (set-wise when no call is refused, a call at a time otherwise), every call gets the outcome and
 * figures it would have had alone, and the books end as if the calls had come one by one.
 */

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { PoolClient } from "pg";
import { originValues } from "../../src/adapters/call-rows.ts";
import { createPostgresStore, type PostgresStore } from "../../src/adapters/postgres/store.ts";
import { accountOf, newKey } from "../contracts/store.contract.ts";
import { seededRandom } from "../helpers/random.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { dropSchema, uniqueSchema } from "./postgres-fixture.ts";

interface Call {
  readonly callId: string;
  readonly keyId: string;
  readonly tool: string;
  readonly period: string;
  readonly credits: number;
  readonly allowance: number | null;
  readonly cap: number | null;
  readonly httpStatus: number;
}

interface Row {
  readonly outcome: string;
  readonly credits_used: number;
  readonly active_calls: number;
}

function args(c: Call) {
  return [
    c.callId,
    "req_batch",
    accountOf(c.keyId),
    c.keyId,
    c.tool,
    c.period,
    c.credits,
    c.allowance,
    c.cap,
    "2026-11-24T12:00:00.000Z",
    c.httpStatus,
    ...originValues({
      credential: "key",
      oauthClientId: null,
      transport: "http",
      clientName: null,
      clientVersion: null,
    }),
  ];
}

/** `calls` in one statement; also how many of them took the one-call path (`toolrun_record_call`). */
async function asBatch(
  client: PoolClient,
  calls: readonly Call[],
): Promise<{ rows: Row[]; oneByOne: number }> {
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL track_functions = 'pl'");
    // The view may still hold calls of this connection's earlier transactions whose statistics
    // PostgreSQL has not flushed yet (it flushes at most once a second): count what this one adds.
    const recordCalls = async () =>
      Number(
        (
          await client.query<{ calls: string }>(
            "SELECT calls FROM pg_stat_xact_user_functions WHERE funcname = 'toolrun_record_call'",
          )
        ).rows[0]?.calls ?? 0,
      );
    const before = await recordCalls();
    const columns = Array.from({ length: 16 }, (_, i) => calls.map((c) => args(c)[i] ?? null));
    const { rows } = await client.query<Row>(
      `SELECT outcome, credits_used, active_calls FROM toolrun_calls($1::text[], $2::text[], $3::text[],
         $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::integer[], $10::timestamptz[],
         $11::integer[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])`,
      columns,
    );
    const oneByOne = (await recordCalls()) - before;
    await client.query("COMMIT");
    return { rows, oneByOne };
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** The same calls one statement each, in order. */
async function oneByOne(client: PoolClient, calls: readonly Call[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of calls) rows.push(...(await asBatch(client, [c])).rows);
  return rows;
}

async function books(store: PostgresStore): Promise<unknown> {
  const q = async (text: string) => (await store.pool.query(text)).rows;
  return {
    balances: await q("SELECT account_id, period, used FROM credit_balances ORDER BY account_id, period"),
    counters: await q(
      "SELECT account_id, period, tool, calls, active_calls, credits FROM tool_usage_monthly ORDER BY account_id, period, tool",
    ),
    usage: await q(
      "SELECT call_id, account_id, key_id, tool, period, credits, status, http_status FROM usage_calls ORDER BY seq",
    ),
  };
}

const db = testDatabaseUrl();
if (db.url === undefined) {
  it("PostgreSQL batches of calls", { skip: db.skip }, () => {});
} else {
  const url = db.url;
  describe("PostgreSQL batched calls", () => {
    const schemas = [uniqueSchema(), uniqueSchema()] as const;
    let batched: PostgresStore;
    let single: PostgresStore;
    const keys = ["key_a", "key_b", "key_c"];
    before(async () => {
      batched = await createPostgresStore({ url, schema: schemas[0] });
      single = await createPostgresStore({ url, schema: schemas[1] });
      for (const store of [batched, single]) {
        await store.migrate();
        for (const id of keys) await store.createKey(newKey({ id }));
      }
    });
    after(async () => {
      await Promise.all([batched.close(), single.close()]);
      await Promise.all(schemas.map((schema) => dropSchema(url, schema)));
    });

    describe("PostgreSQL batches of calls", () => {
      it("records a batch that nothing can refuse set-wise, each call with its own running figures", async () => {
        const call = (keyId: string, tool: string, credits: number, httpStatus = 200): Call => ({
          callId: randomUUID(),
          keyId,
          tool,
          period: "2026-10",
          credits,
          allowance: 100,
          cap: 50,
          httpStatus,
        });
        const calls = [
          call("key_a", "calc", 2),
          call("key_b", "calc", 5),
          call("key_a", "other", 3),
          call("key_a", "calc", 4, 500),
          call("key_a", "calc", 1),
        ];
        const [a, b] = await Promise.all([batched.pool.connect(), single.pool.connect()]);
        try {
          const { rows, oneByOne: statements } = await asBatch(a, calls);
          assert.equal(statements, 0, "no statement a call");
          const expected = [
            { outcome: "charged", credits_used: 2, active_calls: 1 },
            { outcome: "charged", credits_used: 5, active_calls: 1 },
            { outcome: "charged", credits_used: 5, active_calls: 1 },
            { outcome: "refunded", credits_used: 5, active_calls: 1 },
            { outcome: "charged", credits_used: 6, active_calls: 2 },
          ];
          assert.deepEqual(rows, expected);
          assert.deepEqual(await oneByOne(b, calls), expected);
        } finally {
          a.release();
          b.release();
        }
      });

      it("gives every call of random batches the outcome and figures it has alone, and ends with the same books", async () => {
        const next = seededRandom(19);
        const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
        const paths = { setWise: 0, oneByOne: 0 };
        const [a, b] = await Promise.all([batched.pool.connect(), single.pool.connect()]);
        try {
          for (let batch = 0; batch < 80; batch++) {
            // Allowances and caps from none to tight, so that some batches have calls refused.
            const allowance = pick([null, 1_000_000, Math.floor(next() * 300)]);
            const cap = pick([null, null, Math.floor(next() * 80)]);
            const calls = Array.from(
              { length: 1 + Math.floor(next() * 12) },
              (): Call => ({
                callId: randomUUID(),
                keyId: pick(keys),
                tool: pick(["calc", "other"]),
                period: pick(["2026-11", "2026-11", "2026-12"]),
                credits: Math.floor(next() * 6),
                allowance,
                cap,
                httpStatus: pick([200, 200, 200, 500, 422]),
              }),
            );
            const together = await asBatch(a, calls);
            const alone = await oneByOne(b, calls);
            assert.deepEqual(together.rows, alone, `batch ${batch}: ${JSON.stringify(calls)}`);
            if (together.oneByOne === 0) paths.setWise++;
            else paths.oneByOne++;
          }
        } finally {
          a.release();
          b.release();
        }
        assert.deepEqual(await books(batched), await books(single));
        assert.ok(paths.setWise > 10 && paths.oneByOne > 10, JSON.stringify(paths));
      });
    });
  });
}
