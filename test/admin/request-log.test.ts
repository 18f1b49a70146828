/**
 * Admin requests in the request log: the admin key's id (never the key), and a new key's secret
 * never reaches the log either.
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { it } from "node:test";
import { createTestApp } from "../helpers/app.ts";
import { adminClient } from "./helpers.ts";

it("logs an admin request with the admin key's id and the status, never a key", async (t) => {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const app = await createTestApp({ appOptions: { logger: { level: "info", stream } } }, t);
  const admin = await adminClient(app);
  const created = await admin.post("/keys", { plan: "free" });
  const missing = await admin.get("/keys/key_missing");
  const lines = text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => "reqId" in line);
  assert.deepEqual(
    lines.map((l) => [l.reqId, l.keyId, (l.res as { statusCode: number }).statusCode, l.code]),
    [
      [created.headers["x-request-id"], admin.id, 201, undefined],
      [missing.headers["x-request-id"], admin.id, 404, "key_not_found"],
    ],
  );
  assert.ok(!text.includes(admin.key), "the admin key is never logged");
  assert.ok(!text.includes(created.json().key), "a new key's secret is never logged");
});
