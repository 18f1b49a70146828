/**
 * The SQLite ledger's units of several calls (the group commit): each call of a unit is checked
 * against the credits and capped calls of the calls before it in the same unit, so it gets the
 * outcome and figures it would have had alone, and the books end as if the calls had come one by
 * one.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import type { CallOutcome, Reservation, Store, WorkResult } from "../../src/ports/store.ts";
import { accountOf, newKey } from "../contracts/store.contract.ts";
import { seededRandom } from "../helpers/random.ts";

interface Call {
  readonly reservation: Reservation;
  readonly result: WorkResult<string>;
}

const summary = (outcome: CallOutcome<string>) => {
  if (outcome.status === "claimed") return [outcome.status];
  if (outcome.status === "refused") return [outcome.status, outcome.creditsUsed, outcome.reason];
  return [outcome.status, outcome.creditsUsed];
};

/** The calls queued in one turn: they share one unit of the group commit. */
async function together(store: Store, calls: readonly Call[]) {
  const outcomes = await Promise.all(calls.map((c) => store.runCall(c.reservation, () => c.result)));
  return outcomes.map(summary);
}

/** The same calls, each committed before the next is sent. */
async function oneByOne(store: Store, calls: readonly Call[]) {
  const outcomes = [];
  for (const c of calls) outcomes.push(summary(await store.runCall(c.reservation, () => c.result)));
  return outcomes;
}

function books(path: string): unknown {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const q = (sql: string) => db.prepare(sql).all();
    return {
      balances: q("SELECT account_id, period, used FROM credit_balances ORDER BY account_id, period"),
      counters: q(
        "SELECT account_id, period, tool, calls, active_calls, credits FROM tool_usage_monthly ORDER BY account_id, period, tool",
      ),
      usage: q(
        "SELECT call_id, account_id, key_id, tool, period, credits, status, http_status FROM usage_calls ORDER BY seq",
      ),
    };
  } finally {
    db.close();
  }
}

describe("SQLite units", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-units-"));
  const paths = [join(dir, "together.db"), join(dir, "alone.db")] as const;
  const batched = createSqliteStore(paths[0]);
  const single = createSqliteStore(paths[1]);
  before(async () => {
    await batched.migrate();
    await single.migrate();
  });
  after(async () => {
    await Promise.all([batched.close(), single.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const FAILED: WorkResult<string> = { ok: false, httpStatus: 500, error: new Error("the tool failed") };

  describe("SQLite units of several calls", () => {
    it("checks each call of a unit against the credits and capped calls of the calls before it", async () => {
      for (const store of [batched, single]) await store.createKey(newKey({ id: "key_tight" }));
      const call = (credits: number, result: WorkResult<string> = { ok: true, value: "ran" }): Call => ({
        reservation: {
          callId: randomUUID(),
          requestId: "req_unit",
          accountId: accountOf("key_tight"),
          keyId: "key_tight",
          tool: "calc",
          period: "2026-11",
          credits,
          allowance: 10,
          monthlyCallCap: 3,
          at: "2026-11-26T12:00:00.000Z",
        },
        result,
      });
      // 4 + 5 fit the allowance of 10, 2 more do not; the failed call is refunded; the fourth
      // charged call would pass the allowance but meets the cap of 3 calls first.
      const calls = [call(4), call(5), call(2), call(1, FAILED), call(1), call(0)];
      const expected = [
        ["charged", 4],
        ["charged", 9],
        ["refused", 9, "insufficient_credits"],
        ["refunded", 9],
        ["charged", 10],
        ["refused", 10, "tier_limit"],
      ];
      assert.deepEqual(await together(batched, calls), expected);
      assert.deepEqual(await oneByOne(single, calls), expected);
      assert.deepEqual(books(paths[0]), books(paths[1]));
    });

    it("gives every call of random units the outcome and figures it has alone, and ends with the same books", async () => {
      const next = seededRandom(26);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
      for (let unit = 0; unit < 60; unit++) {
        // New keys each unit: no figures remembered from earlier units send a call to the reads
        // made before running, so every check is the unit's own.
        const keys = [`key_${unit}_a`, `key_${unit}_b`];
        for (const store of [batched, single]) for (const id of keys) await store.createKey(newKey({ id }));
        const allowance = pick([null, 1_000_000, Math.floor(next() * 30)]);
        const cap = pick([null, null, Math.floor(next() * 8)]);
        const calls = Array.from(
          { length: 1 + Math.floor(next() * 12) },
          (): Call => ({
            reservation: {
              callId: randomUUID(),
              requestId: "req_unit",
              ...((keyId) => ({ accountId: accountOf(keyId), keyId }))(pick(keys)),
              tool: pick(["calc", "other"]),
              period: pick(["2026-11", "2026-11", "2026-12"]),
              credits: Math.floor(next() * 6),
              allowance,
              monthlyCallCap: cap,
              at: "2026-11-26T12:00:00.000Z",
            },
            result: pick<WorkResult<string>>([
              { ok: true, value: "ran" },
              { ok: true, value: "ran" },
              FAILED,
            ]),
          }),
        );
        assert.deepEqual(
          await together(batched, calls),
          await oneByOne(single, calls),
          `unit ${unit}: ${JSON.stringify(calls.map((c) => c.reservation))}`,
        );
      }
      assert.deepEqual(books(paths[0]), books(paths[1]));
    });
  });
});
