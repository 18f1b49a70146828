import assert from "node:assert/strict";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { before, describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import type { RateLimiter } from "../../src/ports/rate-limiter.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { smallDisk } from "../helpers/tmpfs.ts";

describe("health and docs endpoints (no key needed)", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp({}, suite);
  });

  it("answers liveness and readiness", async () => {
    const live = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: "ok" });
    assert.ok(live.headers["x-request-id"]);
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), {
      status: "ok",
      checks: { database: "ok", rate_limiter: "ok", schema: "ok", writes: "ok" },
    });
  });

  it("reports an unreachable rate-limit store as not ready, and calls as 503 backend_unavailable", async (context) => {
    const down: RateLimiter = {
      hit: async () => {
        throw new BackendUnavailableError("rate-limiter", new Error("ECONNREFUSED"));
      },
      ping: async () => {
        throw new BackendUnavailableError("rate-limiter", new Error("ECONNREFUSED"));
      },
      close: async () => {},
    };
    const broken = await createTestApp({ limiter: down }, context);
    const ready = await broken.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().code, "backend_unavailable");
    assert.deepEqual(ready.json().checks, {
      database: "ok",
      rate_limiter: "unreachable",
      schema: "ok",
      writes: "ok",
    });
    const key = await broken.key();
    const call = await broken.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: { authorization: `Bearer ${key}` },
      payload: { value: 1 },
    });
    assert.equal(call.statusCode, 503);
    assert.equal(call.json().code, "backend_unavailable");
    assert.equal(await broken.store.creditsUsed((await broken.store.listKeys())[0]?.id ?? "", "2026-11"), 0);
  });

  it("is not ready on a database file it can read but not write", async (context) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-readyz-"));
    context.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "toolrun.db");
    const writable = createSqliteStore(path);
    await writable.migrate();
    await writable.close();
    // What mode 0444 gives any user but root.
    const readOnly = await createTestApp(
      { store: createSqliteStore(`file:${path}?mode=ro`), migrate: false },
      context,
    );
    const ready = await readOnly.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(ready.statusCode, 503);
    assert.match(String(ready.headers["content-type"]), /^application\/problem\+json/);
    assert.equal(ready.json().code, "backend_unavailable");
    assert.match(ready.json().detail, /read but not written/);
    assert.deepEqual(ready.json().checks, {
      database: "ok",
      rate_limiter: "ok",
      schema: "ok",
      writes: "read_only",
    });
  });

  it("stays ready while another process holds the database's write lock, and says it is locked", async (context) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-readyz-"));
    context.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "toolrun.db");
    // As the server opens it: a lock is waited for off the event loop.
    const served = await createTestApp(
      { store: createSqliteStore(path, { busyTimeoutMs: 0, lockWaitMs: 1000 }) },
      context,
    );
    const other = new DatabaseSync(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const ready = await served.app.inject({ method: "GET", url: "/readyz" });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), {
        status: "ok",
        checks: { database: "ok", rate_limiter: "ok", schema: "ok", writes: "locked" },
      });
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const free = await served.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(free.json().checks.writes, "ok");
  });

  it("is not ready while the database's disk is full, and ready again once there is room", async (context) => {
    const dir = smallDisk(context);
    if (dir === null) return;
    const path = join(dir, "toolrun.db");
    const served = await createTestApp(
      { store: createSqliteStore(path, { busyTimeoutMs: 0, lockWaitMs: 1000 }) },
      context,
    );
    const filler = join(dir, "filler");
    try {
      writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
    } catch {
      // ENOSPC: the disk is full now, the filler holding what was left.
    }
    const full = await served.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(full.statusCode, 503);
    assert.equal(full.json().code, "backend_unavailable");
    assert.match(full.json().detail, /disk .*full/);
    assert.deepEqual(full.json().checks, {
      database: "ok",
      rate_limiter: "ok",
      schema: "ok",
      writes: "full",
    });
    unlinkSync(filler);
    const room = await served.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(room.statusCode, 200);
    assert.equal(room.json().checks.writes, "ok");
  });

  it("serves the docs index and the error list", async () => {
    const index = await t.app.inject({ method: "GET", url: "/docs" });
    assert.equal(index.statusCode, 200);
    assert.match(index.body, /href="http:\/\/toolrun.test\/docs\/errors"/);
    const errors = await t.app.inject({ method: "GET", url: "/docs/errors" });
    assert.equal(errors.statusCode, 200);
    assert.match(errors.body, /insufficient_credits/);
    assert.match(errors.body, /rate_limited/);
  });
});
