/**
 * A key is shown once at creation and never again: not in logs (at the most verbose level, on
 * successes and failures alike), not in the database file.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";

describe("secrets", () => {
  it("never writes a key to the logs or the database", async (context) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-secrets-"));
    let logs = "";
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk;
        done();
      },
    });
    const t = await createTestApp(
      {
        store: createSqliteStore(join(dir, "toolrun.db")),
        appOptions: {
          logger: {
            level: "trace",
            stream,
            redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" },
          },
        },
      },
      context,
    );
    try {
      const key = await t.key("free");
      const secret = key.slice("tr_live_".length);
      await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 1 },
      });
      await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 1, mode: "crash" },
      });
      await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: "{oops",
      });
      await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
      await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(`${key}x`) });
      assert.ok(logs.length > 0, "the logger wrote something");
      assert.match(logs, /request failed/, "the crash was logged");
      assert.equal(logs.includes(secret), false, "the secret appears in the logs");
      await t.close();
      for (const file of readdirSync(dir)) {
        const bytes = readFileSync(join(dir, file));
        assert.equal(bytes.includes(secret), false, `the secret appears in ${file}`);
        assert.equal(bytes.includes(key), false, `the key appears in ${file}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
