import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileInputValidator, compileOutputValidator } from "./validation.ts";

describe("formats", () => {
  const validate = compileInputValidator({
    type: "object",
    properties: {
      since: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      email: { type: "string", format: "email" },
      website: { type: "string", format: "uri" },
    },
  });

  it("accepts values of their format", () => {
    const body = {
      since: "2026-01-31",
      at: "2026-01-31T14:30:00Z",
      email: "ada@example.com",
      website: "https://example.com/a",
    };
    assert.deepEqual(validate(body), { ok: true, value: body });
  });

  it("names each field whose value is not of its format", () => {
    const result = validate({
      since: "31/01/2026",
      at: "2026-01-31 14:30",
      email: "ada",
      website: "example",
    });
    assert.equal(result.ok, false);
    assert.deepEqual(Object.keys(result.ok ? {} : result.fields).sort(), ["at", "email", "since", "website"]);
  });

  it("checks an output schema's formats too, and refuses a format it does not know", () => {
    const check = compileOutputValidator({
      type: "object",
      properties: { on: { type: "string", format: "date" } },
    });
    assert.equal(check({ on: "2026-02-30" }), 'data/on must match format "date"');
    assert.equal(check({ on: "2026-02-28" }), "");
    assert.throws(
      () => compileOutputValidator({ type: "string", format: "phone" }),
      /unknown format "phone"/,
    );
  });
});
