/**
 * The schema check in front of every keyed endpoint: a missing schema is remembered for the recheck
 * interval (503 api_unconfigured), an unreachable database is not (each request gets the real
 * reason, 503 backend_unavailable, until the database answers).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createReadiness } from "../../src/core/call/readiness.ts";
import { ApiError } from "../../src/core/kernel/errors.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";

describe("readiness", () => {
  it("answers api_unconfigured while the schema is missing, asking the store once per interval", async () => {
    let asked = 0;
    const readiness = createReadiness(
      {
        async isMigrated() {
          asked++;
          return false;
        },
      },
      () => 0,
    );
    for (let n = 0; n < 3; n++) {
      await assert.rejects(readiness.check(), (e) => e instanceof ApiError && e.code === "api_unconfigured");
    }
    assert.equal(asked, 1);
  });

  it("passes an unreachable database through on every request, then becomes ready", async () => {
    let down = 2;
    let asked = 0;
    const readiness = createReadiness(
      {
        async isMigrated() {
          asked++;
          if (down-- > 0) throw new BackendUnavailableError("database", new Error("ECONNREFUSED"));
          return true;
        },
      },
      () => 0,
    );
    await assert.rejects(readiness.check(), BackendUnavailableError);
    await assert.rejects(readiness.check(), BackendUnavailableError);
    await readiness.check();
    await readiness.check();
    assert.equal(asked, 3);
  });
});
