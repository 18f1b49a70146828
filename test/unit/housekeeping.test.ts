/**
 * The periodic jobs of a running server (src/housekeeping.ts): which run, when, and that a job
 * failing is logged by name, except before the schema is there, when there is nothing to do.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jobs, startHousekeeping } from "../../src/housekeeping.ts";
import { SchemaNotReadyError } from "../../src/ports/errors.ts";
import type { Store } from "../../src/ports/store.ts";

const NOW = new Date("2026-11-15T12:00:00.000Z");

function fakeStore(calls: string[], fail?: Error): Store {
  const noted =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push(`${name} ${String(args[0])}`);
      if (fail) throw fail;
      return 0;
    };
  return {
    refundAbandoned: noted("refundAbandoned"),
    purgeExpiredAnswers: noted("purgeExpiredAnswers"),
    purgeOAuth: noted("purgeOAuth"),
  } as unknown as Store;
}

const oauth = { issuer: "http://x", resource: "http://x/mcp" } as never;

describe("housekeeping", () => {
  it("lists the abandoned-call sweep and the answer purge, and the OAuth purge when OAuth is on", () => {
    const deps = { store: fakeStore([]), now: () => NOW };
    const log = { warn() {} };
    assert.deepEqual(
      jobs({ callAbandonS: 120, oauth: null }, deps, log).map((job) => job.name),
      ["sweep of abandoned calls", "purge of expired idempotent answers"],
    );
    assert.deepEqual(
      jobs({ callAbandonS: 120, oauth }, deps, log).map((job) => [job.name, job.everyMs]),
      [
        ["sweep of abandoned calls", 30_000],
        ["purge of expired idempotent answers", 30_000],
        ["purge of ended OAuth codes and tokens", 600_000],
      ],
    );
    assert.deepEqual(
      jobs({ callAbandonS: 120, oauth: null, signin: {} as never }, deps, log).map((job) => job.name),
      ["sweep of abandoned calls", "purge of expired idempotent answers", "purge of expired member sessions"],
    );
    assert.equal(
      jobs({ callAbandonS: 20, oauth: null }, deps, log)[0]?.everyMs,
      10_000,
      "half the abandon time",
    );
  });

  it("runs the start-up jobs at once and every job on its interval, refunding what is older than the abandon time", async (t) => {
    t.mock.timers.enable({ apis: ["setInterval"] });
    const calls: string[] = [];
    const deps = { store: fakeStore(calls), now: () => NOW };
    const running = startHousekeeping(jobs({ callAbandonS: 120, oauth }, deps, { warn() {} }), { warn() {} });
    t.after(() => running.stop());
    assert.deepEqual(calls, [
      "refundAbandoned 2026-11-15T11:58:00.000Z",
      "purgeExpiredAnswers 2026-11-15T12:00:00.000Z",
    ]);
    t.mock.timers.tick(600_000);
    assert.equal(calls.filter((call) => call.startsWith("purgeOAuth")).length, 1);
    assert.equal(calls.filter((call) => call.startsWith("refundAbandoned")).length, 1 + 20);
  });

  it("logs a failing job by its name, but not before the schema is there", async () => {
    for (const [error, logged] of [
      [
        new Error("disk full"),
        ["sweep of abandoned calls failed", "purge of expired idempotent answers failed"],
      ],
      [new SchemaNotReadyError(), []],
    ] as const) {
      const warned: string[] = [];
      const log = { warn: (_details: object, message: string) => void warned.push(message) };
      const deps = { store: fakeStore([], error), now: () => NOW };
      startHousekeeping(jobs({ callAbandonS: 120, oauth: null }, deps, log), log).stop();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warned, logged);
    }
  });
});
