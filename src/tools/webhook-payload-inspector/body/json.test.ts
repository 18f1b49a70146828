import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parseJson } from "./json.ts";
import { measure, prettyPrint } from "./tree.ts";

const pretty = (text: string) => {
  const parsed = parseJson(text);
  assert.ok(parsed.ok, "expected valid JSON");
  return prettyPrint(parsed.doc, 1 << 20);
};

describe("parseJson", () => {
  test("agrees with JSON.parse on what is valid", () => {
    const samples = [
      "{}",
      "[]",
      "0",
      "-0",
      "1.5e-3",
      '"a\\u00e9\\n"',
      "true",
      "null",
      " [1, 2 ,3] ",
      '{"a":{"b":[null,false]}}',
      "",
      " ",
      "01",
      "1.",
      ".5",
      "+1",
      "1e",
      "[1,]",
      '{"a":1,}',
      "{a:1}",
      "'a'",
      '"\\x"',
      '"\\u12"',
      "[1 2]",
      '{"a" 1}',
      "tru",
      "nul",
      "[",
      "]",
      "{",
      '"abc',
      '"a\tb"',
      "\u00a0[]",
      "[]x",
      "NaN",
      "Infinity",
      "-",
      "--1",
      '"\\ud800"',
    ];
    for (const text of samples) {
      let expected = true;
      try {
        JSON.parse(text);
      } catch {
        expected = false;
      }
      assert.equal(parseJson(text).ok, expected, `validity of ${JSON.stringify(text)}`);
    }
  });

  test("agrees with JSON.parse on arbitrary JSON text and arbitrary strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.jsonValue().map((v) => `${JSON.stringify(v)}x`),
        ),
        (text) => {
          let expected = true;
          try {
            JSON.parse(text);
          } catch {
            expected = false;
          }
          assert.equal(parseJson(text).ok, expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("keeps numbers, member order and repeated names exactly as written", () => {
    const text = '{"b":12345678901234567890,"a":1.50,"1":true,"b":2e10}';
    assert.equal(pretty(text), '{\n  "b": 12345678901234567890,\n  "a": 1.50,\n  "1": true,\n  "b": 2e10\n}');
  });

  test("keeps string escapes as sent", () => {
    assert.equal(pretty('["caf\\u00e9","\\/"]'), '[\n  "caf\\u00e9",\n  "\\/"\n]');
  });

  test("reports where the error is", () => {
    const parsed = parseJson('{\n  "a": 1,\n  "b": }');
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.match(parsed.error, /line 3, column 8/);
  });

  test("parses nesting far deeper than the call stack allows", () => {
    const depth = 200_000;
    const parsed = parseJson(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    assert.ok(parsed.ok);
    assert.deepEqual(measure(parsed.doc), { depth, keys: 0 });
  });
});

describe("prettyPrint", () => {
  test("lays out like JSON.stringify(value, null, 2) when nothing is lost", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        // JSON.parse reorders integer-like keys, so compare only where it keeps the order.
        fc.pre(!/"\d+":/.test(text));
        assert.equal(pretty(text), JSON.stringify(JSON.parse(text), null, 2));
      }),
      { numRuns: 300 },
    );
  });

  test("gives up when the output would exceed the budget", () => {
    const parsed = parseJson(`${"[".repeat(3000)}${"]".repeat(3000)}`);
    assert.ok(parsed.ok);
    assert.equal(prettyPrint(parsed.doc, 100_000), null);
  });
});

describe("measure", () => {
  test("depth: a scalar is 0 and each container adds 1; keys count every member name", () => {
    const cases: Array<[string, number, number]> = [
      ["1", 0, 0],
      ["{}", 1, 0],
      ["[]", 1, 0],
      ['{"a":{"b":1}}', 2, 2],
      ['[{"a":1},{"a":2,"b":[{"c":3}]}]', 4, 4],
      ['{"a":1,"a":2}', 1, 2],
    ];
    for (const [text, depth, keys] of cases) {
      const parsed = parseJson(text);
      assert.ok(parsed.ok);
      assert.deepEqual(measure(parsed.doc), { depth, keys }, text);
    }
  });
});
