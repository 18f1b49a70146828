/**
 * The `Idempotency-Key` header on `POST /v1/tool/{slug}`: what a valid key is. What a key does (replay,
 * mismatch, in use, expiry) is the contract every store passes (test/contracts/idempotency.contract.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";

describe("Idempotency-Key header", () => {
  it("is 1 to 255 visible ASCII characters; anything else is a 400 naming it, charging nothing", async (t) => {
    const app = await createTestApp({}, t);
    const key = await app.key();
    const post = (idempotencyKey: string) =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "idempotency-key": idempotencyKey }),
        payload: '{"value": 1}',
      });
    for (const bad of ["", "x".repeat(256), "with space", "caf\u00e9", "tab\there"]) {
      const problem = assertProblem(await post(bad), 400, "validation_error");
      assert.deepEqual(problem.fields, { "Idempotency-Key": "must be 1 to 255 visible ASCII characters" });
    }
    for (const good of ["a", "x".repeat(255), "8e03978e-40d5-43e8-bc93-6894a57f9324", "!~{}"]) {
      assert.equal((await post(good)).statusCode, 200, good);
    }
    const credits = await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.json().credits_used, 12);
  });
});
