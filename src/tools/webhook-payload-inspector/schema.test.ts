import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { inputSchema, outputSchema } from "./schema.ts";

const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });

describe("schemas", () => {
  test("both compile under Ajv 2020 in strict mode", () => {
    assert.doesNotThrow(() => ajv.compile(inputSchema));
    assert.doesNotThrow(() => ajv.compile(outputSchema));
  });

  test("the input schema requires a string payload and rejects unknown fields", () => {
    const validate = ajv.compile(inputSchema);
    assert.equal(validate({ payload: "x" }), true);
    assert.equal(
      validate({ payload: "", secret: "s" }),
      true,
      "an empty payload passes the schema (it is a 422)",
    );
    for (const body of [
      {},
      { payload: 1 },
      { payload: null },
      { payload: "x", secret: 2 },
      { payload: "x", extra: true },
    ]) {
      assert.equal(validate(body), false, JSON.stringify(body));
    }
  });

  test("the payload is labelled as the description says", () => {
    const properties = inputSchema.properties as Record<string, { title?: string }>;
    assert.equal(properties.payload?.title, "Raw Webhook Request");
  });
});
