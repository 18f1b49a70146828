/**
 * The periodic jobs of a running server (src/housekeeping.ts): which run, when, and that a job
 * failing is logged by name, except before the schema is there, when there is nothing to do.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ServiceSettings } from "../../src/core/kernel/settings.ts";
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
    purgeCaptures: noted("purgeCaptures"),
    purgeJobs: noted("purgeJobs"),
    purgeWebhooks: noted("purgeWebhooks"),
    lapsedJobs: async (...args: unknown[]) => {
      calls.push(`lapsedJobs ${String(args[0])}`);
      if (fail) throw fail;
      return [];
    },
  } as unknown as Store;
}

const settings = { docsUrl: "http://x/docs", jobTtlS: 86_400 } as ServiceSettings;
const oauth = { issuer: "http://x", resource: "http://x/mcp" } as never;

describe("housekeeping", () => {
  it("lists the abandoned-call sweep, the answer, capture, job and webhook purges, the OAuth purge when OAuth is on and the sessions purge when sign-in is", () => {
    const deps = { store: fakeStore([]), now: () => NOW, settings };
    const log = { warn() {} };
    assert.deepEqual(
      jobs({ webhookRetentionS: 86_400, callAbandonS: 120, oauth: null }, deps, log).map((job) => job.name),
      [
        "sweep of abandoned calls",
        "sweep of abandoned jobs",
        "purge of expired idempotent answers",
        "purge of expired captures",
        "purge of ended jobs",
        "purge of old webhook deliveries",
      ],
    );
    assert.deepEqual(
      jobs({ webhookRetentionS: 86_400, callAbandonS: 120, oauth }, deps, log).map((job) => [
        job.name,
        job.everyMs,
      ]),
      [
        ["sweep of abandoned calls", 30_000],
        ["sweep of abandoned jobs", 30_000],
        ["purge of expired idempotent answers", 30_000],
        ["purge of expired captures", 600_000],
        ["purge of ended jobs", 600_000],
        ["purge of old webhook deliveries", 600_000],
        ["purge of ended OAuth codes and tokens", 600_000],
      ],
    );
    assert.deepEqual(
      jobs({ webhookRetentionS: 86_400, callAbandonS: 120, oauth: null, signin: {} as never }, deps, log).map(
        (job) => job.name,
      ),
      [
        "sweep of abandoned calls",
        "sweep of abandoned jobs",
        "purge of expired idempotent answers",
        "purge of expired captures",
        "purge of ended jobs",
        "purge of old webhook deliveries",
        "purge of expired member sessions",
      ],
    );
    assert.equal(
      jobs({ webhookRetentionS: 86_400, callAbandonS: 20, oauth: null }, deps, log)[0]?.everyMs,
      10_000,
      "half the abandon time",
    );
  });

  it("runs the start-up jobs at once and every job on its interval, refunding what is older than the abandon time and purging webhooks older than their retention", async (t) => {
    t.mock.timers.enable({ apis: ["setInterval"] });
    const calls: string[] = [];
    const deps = { store: fakeStore(calls), now: () => NOW, settings };
    const running = startHousekeeping(
      jobs({ webhookRetentionS: 86_400, callAbandonS: 120, oauth }, deps, { warn() {} }),
      { warn() {} },
    );
    t.after(() => running.stop());
    assert.deepEqual(calls, [
      "refundAbandoned 2026-11-15T11:58:00.000Z",
      "lapsedJobs 2026-11-15T12:00:00.000Z",
      "purgeExpiredAnswers 2026-11-15T12:00:00.000Z",
      "purgeCaptures 2026-11-15T12:00:00.000Z",
      "purgeJobs 2026-11-15T12:00:00.000Z",
      "purgeWebhooks 2026-11-14T12:00:00.000Z",
    ]);
    t.mock.timers.tick(600_000);
    assert.equal(calls.filter((call) => call.startsWith("purgeOAuth")).length, 1);
    assert.equal(calls.filter((call) => call.startsWith("purgeCaptures")).length, 1 + 1);
    assert.equal(calls.filter((call) => call.startsWith("purgeWebhooks")).length, 1 + 1);
    assert.equal(calls.filter((call) => call.startsWith("refundAbandoned")).length, 1 + 20);
  });

  it("delivers webhooks every second when given a deliverer, and stops it with the rest", async (t) => {
    t.mock.timers.enable({ apis: ["setInterval"] });
    const calls: string[] = [];
    const webhooks = {
      deliverDue: async () => {
        calls.push("deliverDue");
        return 0;
      },
      stop: async () => void calls.push("stop"),
    };
    const list = jobs(
      { webhookRetentionS: 86_400, callAbandonS: 120, oauth: null },
      { store: fakeStore([]), now: () => NOW, settings, webhooks },
      {
        warn() {},
      },
    );
    assert.deepEqual(list.map((job) => [job.name, job.everyMs]).at(-1), ["delivery of webhooks", 1000]);
    const running = startHousekeeping(list, { warn() {} });
    t.mock.timers.tick(3000);
    assert.equal(calls.filter((call) => call === "deliverDue").length, 1 + 3);
    await running.stop();
    assert.equal(calls.at(-1), "stop");
  });

  it("logs a failing job by its name, but not before the schema is there", async () => {
    for (const [error, logged] of [
      [
        new Error("disk full"),
        [
          "sweep of abandoned calls failed",
          "purge of expired idempotent answers failed",
          "purge of expired captures failed",
          "purge of ended jobs failed",
          "purge of old webhook deliveries failed",
          // It fails a step later: on the read of the lapsed jobs it awaits.
          "sweep of abandoned jobs failed",
        ],
      ],
      [new SchemaNotReadyError(), []],
    ] as const) {
      const warned: string[] = [];
      const log = { warn: (_details: object, message: string) => void warned.push(message) };
      const deps = { store: fakeStore([], error), now: () => NOW, settings };
      startHousekeeping(
        jobs({ webhookRetentionS: 86_400, callAbandonS: 120, oauth: null }, deps, log),
        log,
      ).stop();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warned, logged);
    }
  });
});
