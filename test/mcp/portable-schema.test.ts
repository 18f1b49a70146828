/**
 * The portable rendering of tool schemas for `tools/list`: each rule on its own, then every
 * registered tool's schemas rendered, checked portable, judged by a draft-07 validator exactly as
 * the 2020-12 original judges the same inputs, and accepting the tools' real outputs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { envelopeSchema } from "../../src/core/contract/schemas.ts";
import { compileInputValidator } from "../../src/core/kernel/validation.ts";
import { toPortableJsonSchema } from "../../src/mcp/portable-schema.ts";
import { tools } from "../../src/tools/index.ts";
import { SCHEMA_KEYWORDS } from "../../src/tools/schema.ts";
import type { AnyToolDefinition, JsonSchema } from "../../src/tools/tool.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";
import { compileDraft07, portabilityFindings } from "./portability.ts";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

function original(schema: JsonSchema) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  for (const keyword of SCHEMA_KEYWORDS) ajv.addKeyword(keyword);
  return ajv.compile(schema);
}

describe("toPortableJsonSchema, rule by rule", () => {
  it("drops $schema and vendor keywords, keeps annotations and values as they are", () => {
    const source = {
      $schema: DIALECT,
      type: "object",
      title: "T",
      "x-numeric-string": true,
      properties: { a: { const: { type: ["not", "a", "schema"] }, default: { prefixItems: 1 } } },
    };
    assert.deepEqual(toPortableJsonSchema(source), {
      type: "object",
      title: "T",
      properties: { a: { const: { type: ["not", "a", "schema"] }, default: { prefixItems: 1 } } },
    });
  });

  it("writes boolean subschemas as objects, except where draft-07 allows them", () => {
    assert.deepEqual(
      toPortableJsonSchema({
        type: "object",
        additionalProperties: false,
        properties: { gone: false, anything: true },
        propertyNames: { not: false },
      }),
      {
        type: "object",
        additionalProperties: false,
        properties: { gone: { not: {} }, anything: {} },
        propertyNames: { not: { not: {} } },
      },
    );
  });

  it("turns a closed tuple into items over its positions, bounded by its length", () => {
    const a = { type: "object", properties: { k: { const: "A" } } };
    const b = { type: "object", properties: { k: { const: "B" } } };
    assert.deepEqual(
      toPortableJsonSchema({ type: "array", prefixItems: [a, b], items: false, minItems: 2 }),
      { type: "array", minItems: 2, items: { anyOf: [a, b] }, maxItems: 2 },
    );
    assert.deepEqual(toPortableJsonSchema({ type: "array", prefixItems: [a], items: { type: "string" } }), {
      type: "array",
      items: { anyOf: [a, { type: "string" }] },
    });
    assert.deepEqual(toPortableJsonSchema({ type: "array", prefixItems: [a], items: { not: {} } }), {
      type: "array",
      items: a,
      maxItems: 1,
    });
    assert.deepEqual(
      toPortableJsonSchema({ type: "array", prefixItems: [a], items: { not: { type: "string" } } }),
      {
        type: "array",
        items: { anyOf: [a, { not: { type: "string" } }] },
      },
    );
    // Anything may follow an open tuple, so nothing portable constrains its items.
    assert.deepEqual(toPortableJsonSchema({ type: "array", prefixItems: [a, b] }), { type: "array" });
    assert.deepEqual(
      toPortableJsonSchema({ type: "array", prefixItems: [a, b], items: false, maxItems: 1 }),
      {
        type: "array",
        items: { anyOf: [a, b] },
        maxItems: 1,
      },
    );
  });

  it("splits a type array into anyOf branches, each with its own type's keywords", () => {
    assert.deepEqual(
      toPortableJsonSchema({
        type: ["number", "string"],
        title: "Height",
        minimum: 0,
        maximum: 50,
        pattern: "^\\d+$",
        default: 0,
        "x-numeric-string": true,
      }),
      {
        title: "Height",
        default: 0,
        anyOf: [
          { type: "number", minimum: 0, maximum: 50 },
          { type: "string", pattern: "^\\d+$" },
        ],
      },
    );
    assert.deepEqual(toPortableJsonSchema({ type: ["integer", "null"], minimum: 0 }), {
      anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }],
    });
    assert.deepEqual(toPortableJsonSchema({ type: ["string"] }), { type: "string" });
    assert.deepEqual(
      toPortableJsonSchema({ type: ["string", "null"], anyOf: [{ minLength: 1 }, { type: "null" }] }),
      {
        anyOf: [{ minLength: 1 }, { type: "null" }],
        allOf: [{ anyOf: [{ type: "string" }, { type: "null" }] }],
      },
    );
  });

  it("moves $defs to definitions, follows their references, and keeps a $ref's siblings in force", () => {
    assert.deepEqual(
      toPortableJsonSchema({
        $defs: { n: { type: ["integer", "null"] } },
        type: "object",
        properties: { a: { $ref: "#/$defs/n" }, b: { $ref: "#/$defs/n", description: "B", minimum: 1 } },
      }),
      {
        definitions: { n: { anyOf: [{ type: "integer" }, { type: "null" }] } },
        type: "object",
        properties: {
          a: { $ref: "#/definitions/n" },
          b: { description: "B", minimum: 1, allOf: [{ $ref: "#/definitions/n" }] },
        },
      },
    );
  });

  it("writes dependentRequired and dependentSchemas as draft-07 dependencies", () => {
    assert.deepEqual(
      toPortableJsonSchema({
        type: "object",
        dependentRequired: { a: ["b"] },
        dependentSchemas: { c: { required: ["d"], properties: { d: false } } },
      }),
      { type: "object", dependencies: { a: ["b"], c: { required: ["d"], properties: { d: { not: {} } } } } },
    );
  });

  it("refuses a keyword draft-07 cannot express, naming where it is", () => {
    assert.throws(
      () =>
        toPortableJsonSchema({
          type: "object",
          properties: { a: { type: "object", unevaluatedProperties: false } },
        }),
      /#\/properties\/a\/unevaluatedProperties: unevaluatedProperties has no draft-07 equivalent/,
    );
    assert.throws(
      () => toPortableJsonSchema({ type: "array", contains: { type: "string" }, minContains: 2 }),
      /minContains/,
    );
  });

  it("never changes the schema it renders", () => {
    const source = { type: "array", prefixItems: [{ type: ["string", "null"] }], items: false };
    const copy = structuredClone(source);
    toPortableJsonSchema(source);
    assert.deepEqual(source, copy);
  });
});

const allTools: readonly AnyToolDefinition[] = [...tools, ...fixtureTools];

/** Each example, then each example with one property swapped for a value of another kind. */
function sampleInputs(tool: AnyToolDefinition): unknown[] {
  const properties = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
  const odd = [
    "3.5",
    "-2",
    "1e3",
    "abc",
    "",
    " 7 ",
    -1,
    0,
    1e9,
    12.5,
    true,
    null,
    {},
    [],
    "metric",
    "payload",
  ];
  const samples: unknown[] = [{}, { unknown: 1 }];
  for (const name of properties) for (const value of odd) samples.push({ [name]: value });
  for (const example of tool.examples) {
    samples.push(example.input);
    for (const name of properties) {
      for (const value of odd) samples.push({ ...example.input, [name]: value });
      const { [name]: _removed, ...without } = example.input;
      samples.push(without);
    }
  }
  return samples;
}

describe("every registered tool's schemas, rendered for MCP", () => {
  for (const tool of allTools) {
    const input = toPortableJsonSchema(tool.inputSchema);
    const output = toPortableJsonSchema(envelopeSchema(tool.slug, tool.outputSchema));

    it(`${tool.slug}: portable, and compiled by a strict draft-07 validator`, () => {
      assert.deepEqual(portabilityFindings(input), []);
      assert.deepEqual(portabilityFindings(output), []);
      compileDraft07(input);
      compileDraft07(output);
    });

    it(`${tool.slug}: the input schema accepts and refuses exactly what the 2020-12 one does`, () => {
      const before = original(tool.inputSchema);
      const after = compileDraft07(input);
      let accepted = 0;
      for (const sample of sampleInputs(tool)) {
        assert.equal(after(sample), before(sample), JSON.stringify(sample));
        if (before(sample)) accepted += 1;
      }
      assert.ok(accepted > 0, "some samples are valid");
    });

    it(`${tool.slug}: and so it does for generated inputs (property)`, () => {
      const before = original(tool.inputSchema);
      const after = compileDraft07(input);
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { enum?: unknown[] }>;
      const names = [...Object.keys(properties), "extra"];
      const known = Object.values(properties).flatMap((p) => p.enum ?? []);
      const value = fc.oneof(
        fc.jsonValue(),
        fc.double().map(String),
        fc.integer({ min: -100, max: 100 }),
        fc.integer({ min: -100, max: 100 }).map(String),
        ...(known.length > 0 ? [fc.constantFrom(...known)] : []),
      );
      fc.assert(
        fc.property(
          fc.dictionary(fc.constantFrom(...names), value),
          (sample) => after(sample) === before(sample),
        ),
        { numRuns: 500 },
      );
    });

    it(`${tool.slug}: the envelope of every example's real output validates, as SDK v1 checks it`, async () => {
      const sdkV1 = new AjvJsonSchemaValidator().getValidator(output);
      const strict = compileDraft07(output);
      const checkInput = compileInputValidator(tool.inputSchema);
      for (const example of tool.examples) {
        const checked = checkInput(example.input);
        assert.ok(checked.ok, example.title);
        const outputs = await tool.run(checked.value as never, {} as never);
        for (const credits_remaining of [997, null]) {
          const envelope = {
            tool: tool.slug,
            tool_version: tool.version,
            outputs,
            credits_used: 3,
            credits_remaining,
            request_id: "req_1",
          };
          assert.equal(sdkV1(envelope).valid, true, `${example.title}: ${sdkV1(envelope).errorMessage}`);
          assert.ok(strict(envelope), example.title);
        }
        assert.equal(sdkV1({ tool: "other", outputs }).valid, false, "it still refuses a wrong envelope");
      }
    });
  }
});
