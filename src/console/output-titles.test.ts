import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { outputTitles } from "./output-titles.ts";

describe("outputTitles", () => {
  it("keeps the titles of properties, nested objects and array items, and nothing else", () => {
    const titles = outputTitles({
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string" },
        email: { type: "string", title: "Email address", format: "email" },
        address: {
          type: "object",
          title: "Postal address",
          properties: { postal_code: { type: "string", title: "ZIP" }, city: { type: "string" } },
        },
        orders: {
          type: "array",
          items: { type: "object", properties: { total: { type: "number", title: "Total (USD)" } } },
        },
        tags: { type: "array", items: { type: "string" } },
      },
    });
    assert.deepEqual(titles, {
      properties: {
        email: { title: "Email address" },
        address: { title: "Postal address", properties: { postal_code: { title: "ZIP" } } },
        orders: { items: { properties: { total: { title: "Total (USD)" } } } },
      },
    });
  });

  it("is nothing for a schema without titles, or without a schema", () => {
    assert.equal(outputTitles({ type: "object", properties: { id: { type: "string" } } }), null);
    assert.equal(outputTitles(undefined), null);
  });
});
