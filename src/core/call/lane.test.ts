import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createLane } from "./lane.ts";

/** Keeps the event loop busy (an immediate after another, never waiting for I/O) for `ms`. */
function keepBusy(ms: number): Promise<void> {
  const until = performance.now() + ms;
  return new Promise((resolve) => {
    const spin = () => {
      const slice = performance.now() + 1;
      while (performance.now() < slice);
      if (performance.now() < until) setImmediate(spin);
      else resolve();
    };
    setImmediate(spin);
  });
}

describe("the lane of background work", () => {
  it("lets at most its width in at once, the next one when a place is freed", async () => {
    const lane = createLane({ width: 2, busyEveryMs: 10 });
    const entered: number[] = [];
    const leaves = [0, 1, 2].map(async (n) => {
      const leave = await lane.enter();
      entered.push(n);
      return leave;
    });
    await sleep(30);
    assert.deepEqual(entered, [0, 1]);
    (await leaves[0])?.();
    await sleep(30);
    assert.deepEqual(entered, [0, 1, 2]);
  });

  it("waits while the loop never waits for I/O, letting one in every busyEveryMs, and the rest once it is idle", async () => {
    const lane = createLane({ width: 50, busyEveryMs: 40 });
    let entered = 0;
    const busy = keepBusy(200);
    const all = Promise.all(Array.from({ length: 20 }, () => lane.enter().then(() => entered++)));
    await busy;
    const whileBusy = entered;
    await all;
    assert.ok(whileBusy >= 1, "a busy loop still lets work in, now and then");
    assert.ok(whileBusy <= 8, `a busy loop let ${whileBusy} of 20 in at once`);
    assert.equal(entered, 20);
  });

  it("frees a place once, however often its leave is called", async () => {
    const lane = createLane({ width: 1, busyEveryMs: 10 });
    const leave = await lane.enter();
    leave();
    leave();
    const second = await lane.enter();
    let third = false;
    void lane.enter().then(() => {
      third = true;
    });
    await sleep(30);
    assert.equal(third, false, "the second leave of the first piece freed the second's place");
    second();
  });
});
