/**
 * The contract check every tool passes when it is loaded: a good definition gets its defaults, and
 * each way of breaking the contract is named in one phrase.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkDefinition } from "../../src/core/tools/check-definition.ts";
import { tools } from "../../src/tools/index.ts";
import {
  isUnprocessableInputError,
  type ToolDefinition,
  UnprocessableInputError,
} from "../../src/tools/tool.ts";

function converter(): Record<string, unknown> {
  const definition: ToolDefinition<{ celsius: number }, { fahrenheit: number }> = {
    slug: "celsius-to-fahrenheit",
    name: "Celsius to Fahrenheit",
    description: "Converts a temperature.",
    keywords: ["temperature"],
    version: "1.2.3",
    defaults: { weight: 1, maxBodyBytes: 1024 },
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["celsius"],
      properties: { celsius: { type: "number", minimum: -273.15 } },
    },
    outputSchema: {
      type: "object",
      required: ["fahrenheit"],
      properties: { fahrenheit: { type: "number" } },
    },
    examples: [{ title: "Body temperature", input: { celsius: 37 } }],
    effects: "none",
    run: ({ celsius }) => ({ fahrenheit: (celsius * 9) / 5 + 32 }),
  };
  return { ...definition };
}

function problemsOf(change: Record<string, unknown>, remove: string[] = []): readonly string[] {
  const definition = { ...converter(), ...change };
  for (const member of remove) delete definition[member];
  const check = checkDefinition(definition);
  assert.equal(check.ok, false, "the definition should have been refused");
  return check.ok ? [] : check.problems;
}

function assertProblem(problems: readonly string[], pattern: RegExp): void {
  assert.ok(
    problems.some((problem) => pattern.test(problem)),
    `no problem matches ${pattern}: ${problems.join(" | ")}`,
  );
}

describe("checkDefinition", () => {
  it("accepts a definition that keeps the contract and fills in the 30-second timeout", () => {
    const check = checkDefinition(converter());
    assert.ok(check.ok, check.ok ? "" : check.problems.join("; "));
    assert.equal(check.tool.definition.timeoutMs, 30_000);
    assert.equal(check.tool.definition.effects, "none");
    assert.deepEqual(check.tool.definition.run({ celsius: 100 } as never, {} as never), { fahrenheit: 212 });
    assert.equal(check.tool.checkOutput({ fahrenheit: 1 }), "");
    assert.notEqual(check.tool.checkOutput({ fahrenheit: "hot" }), "");
    assert.ok(Object.isFrozen(check.tool.definition));
  });

  it("keeps a timeout the definition gives", () => {
    const check = checkDefinition({ ...converter(), timeoutMs: 1500 });
    assert.ok(check.ok);
    assert.equal(check.tool.definition.timeoutMs, 1500);
  });

  it("holds answers to 1 MiB of JSON unless the definition sets its own cap, up to 100 MiB", () => {
    const check = checkDefinition(converter());
    assert.ok(check.ok);
    assert.equal(check.tool.definition.maxOutputBytes, 1024 * 1024);
    const own = checkDefinition({ ...converter(), maxOutputBytes: 4096 });
    assert.ok(own.ok);
    assert.equal(own.tool.definition.maxOutputBytes, 4096);
    for (const maxOutputBytes of [0, 1.5, 100 * 1024 * 1024 + 1, "1MiB"])
      assertProblem(
        problemsOf({ maxOutputBytes }),
        /^maxOutputBytes must be an integer from 2 to 104857600$/,
      );
  });

  it("accepts the built-in tools once they say they have no effects", () => {
    for (const tool of tools) {
      const check = checkDefinition({ ...tool, effects: "none" });
      assert.ok(check.ok, `${tool.slug}: ${check.ok ? "" : check.problems.join("; ")}`);
    }
  });

  it("refuses what is not an object", () => {
    for (const value of [null, 42, "tool", [converter()], () => ({})]) {
      const check = checkDefinition(value);
      assert.equal(check.ok, false);
      assert.ok(!check.ok);
      assertProblem(check.problems, /not a tool definition/);
    }
  });

  it("refuses a slug that is not lowercase words joined by single hyphens, or too long", () => {
    for (const slug of [
      "Upper",
      "two--hyphens",
      "-lead",
      "trail-",
      "9lives",
      "under_score",
      "a".repeat(65),
      "",
      7,
    ]) {
      assertProblem(problemsOf({ slug }), /^slug must be lowercase letters, digits and single hyphens/);
    }
    assert.ok(checkDefinition({ ...converter(), slug: "a".repeat(64) }).ok);
  });

  it("names a missing run, and a run that is not a function", () => {
    assertProblem(problemsOf({}, ["run"]), /^run must be a function$/);
    assertProblem(problemsOf({ run: "compute" }), /^run must be a function$/);
  });

  it("needs effects to be none or external", () => {
    assertProblem(problemsOf({}, ["effects"]), /^effects must be "none" or "external"$/);
    assertProblem(problemsOf({ effects: "readonly" }), /^effects must be "none" or "external"$/);
  });

  it("needs timeoutMs to be a whole number of milliseconds up to five minutes", () => {
    for (const timeoutMs of [0, -1, 1.5, 300_001, "30000", null])
      assertProblem(problemsOf({ timeoutMs }), /^timeoutMs must be an integer from 1 to 300000$/);
  });

  it("needs defaults with a weight and a body limit, and nothing else", () => {
    assertProblem(problemsOf({}, ["defaults"]), /^defaults must be an object/);
    assertProblem(
      problemsOf({ defaults: { weight: -1, maxBodyBytes: 1024 } }),
      /^defaults\.weight must be an integer from 0/,
    );
    assertProblem(
      problemsOf({ defaults: { weight: 1 } }),
      /^defaults\.maxBodyBytes must be an integer from 2/,
    );
    assertProblem(
      problemsOf({ defaults: { weight: 1, maxBodyBytes: 1024, credits: 3 } }),
      /^defaults has an unknown member "credits"$/,
    );
  });

  it("names a schema the validator cannot compile, or one that is not of an object", () => {
    assertProblem(
      problemsOf({ inputSchema: { type: "object", properties: { a: { type: "strng" } } } }),
      /^inputSchema is not a valid JSON Schema 2020-12: /,
    );
    assertProblem(
      problemsOf({ inputSchema: { type: "object", properties: { a: { type: "string", format: "phone" } } } }),
      /^inputSchema is not a valid JSON Schema 2020-12: unknown format "phone"/,
    );
    assertProblem(problemsOf({ inputSchema: { type: "array" } }), /^inputSchema must describe an object/);
    assertProblem(problemsOf({}, ["outputSchema"]), /^outputSchema must be a JSON Schema/);
    assertProblem(
      problemsOf({ outputSchema: { type: "object", "x-unknown": true } }),
      /^outputSchema is not a valid/,
    );
  });

  it("needs every example to be a valid input, naming the field", () => {
    assertProblem(
      problemsOf({ examples: [{ title: "Too cold", input: { celsius: -300 } }] }),
      /^examples\[0\] \("Too cold"\) does not match inputSchema: celsius must be at least -273.15$/,
    );
    assertProblem(
      problemsOf({ examples: [{ input: {} }] }),
      /^examples\[0\] must be an object with a non-empty title/,
    );
    assertProblem(problemsOf({ examples: "none" }), /^examples must be an array/);
  });

  it("names every other member it does not know, and the ones it needs", () => {
    const problems = problemsOf({ timeout: 5000 }, ["name", "version", "keywords"]);
    assertProblem(problems, /^unknown member "timeout"/);
    assertProblem(problems, /^name must be a non-empty string$/);
    assertProblem(problems, /^version must be three dotted numbers/);
    assertProblem(problems, /^keywords must be an array of non-empty strings$/);
    assertProblem(problemsOf({ version: "1.0" }), /^version must be three dotted numbers/);
  });
});

describe("the contract's 422 error", () => {
  it("is recognised when made by this copy of the contract or by any other", () => {
    assert.ok(isUnprocessableInputError(new UnprocessableInputError("no answer")));
    // Another copy of the class (a vendored contract file) carries the same registered brand.
    const brand = Symbol.for("toolrun.UnprocessableInputError");
    class VendoredError extends Error {
      constructor(message: string) {
        super(message);
        Object.defineProperty(this, brand, { value: true });
      }
    }
    assert.ok(isUnprocessableInputError(new VendoredError("no answer")));
    for (const other of [
      new Error("UnprocessableInputError"),
      { name: "UnprocessableInputError" },
      null,
      "x",
    ])
      assert.equal(isUnprocessableInputError(other), false);
  });
});
