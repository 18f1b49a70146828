import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { byDeadline } from "./deadline.ts";

const never = new Promise<never>(() => {});

/** Lets settled promises run their callbacks. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe("byDeadline", () => {
  it("answers as the work does when it settles first", async () => {
    assert.equal(await byDeadline(Promise.resolve(7), Date.now() + 1_000, () => new Error("late")), 7);
    await assert.rejects(
      byDeadline(Promise.reject(new Error("refused")), Date.now() + 1_000, () => new Error("late")),
      /refused/,
    );
  });

  // Node's timers run on a millisecond clock of their own, so one can fire a little before the
  // wall clock reaches the deadline; a backend compares the deadline with its own wall clock, and
  // would count work whose caller had already given up.
  it("never gives up before the wall clock reaches the deadline, even when its timer fires early", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const deadline = Date.now() + 30;
    let gaveUpAt: number | null = null;
    void byDeadline(never, deadline, () => new Error("late")).catch(() => {
      gaveUpAt = Date.now();
    });
    t.mock.timers.tick(30);
    await settle();
    assert.equal(gaveUpAt, null, "the timer fired while the wall clock was short of the deadline");

    while (Date.now() < deadline) {
      // The wall clock catches up.
    }
    t.mock.timers.tick(30);
    await settle();
    assert.ok(gaveUpAt !== null && gaveUpAt >= deadline, "gave up once the deadline had passed");
  });
});
