import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyzeBody, countCodePoints } from "./body.ts";
import { decodeComponent, decodeForm, looksLikeForm } from "./form.ts";

describe("format detection", () => {
  const cases: Array<[body: string, contentType: string | null, format: string, valid: boolean | null]> = [
    ['{"a":1}', "application/json", "json", true],
    ['{"a":1}', "application/vnd.api+json; charset=utf-8", "json", true],
    ["{bad", "application/json", "json", false],
    ["a=1&b=2", "application/json", "json", false],
    ["a=1&b=2", "application/x-www-form-urlencoded", "form", false],
    ['{"a":1}', "text/plain", "json", true],
    ["{not json", "text/plain", "text", null],
    ["<a/>", "application/xml", "xml", null],
    ["<a/>", "text/plain", "text", null],
    ["--x\r\n", "multipart/form-data; boundary=x", "multipart", null],
    ['{"a":1}', null, "json", true],
    ["[1,", null, "json", false],
    ["<?xml version='1.0'?><a/>", null, "xml", null],
    ["a=1&b=%20", null, "form", false],
    ["hello world", null, "text", null],
    ["", "application/json", "empty", null],
    [" \r\n", null, "empty", null],
  ];
  for (const [body, contentType, format, valid] of cases) {
    test(`${JSON.stringify(body)} with ${contentType ?? "no Content-Type"} is ${format}`, () => {
      const analysis = analyzeBody(body, contentType);
      assert.equal(analysis.format, format);
      assert.equal(analysis.validJson, valid);
    });
  }

  test("a JSON body labelled as a form is read as JSON, with a note", () => {
    const analysis = analyzeBody('{"a":1}', "application/x-www-form-urlencoded");
    assert.equal(analysis.format, "json");
    assert.match(analysis.notes[0] ?? "", /is JSON/);
  });
});

describe("sizes", () => {
  test("Body Size is UTF-8 bytes with the BOM; Characters are code points", () => {
    const body = '\ufeff{"e":"é😀"}';
    const analysis = analyzeBody(body, "application/json");
    assert.equal(analysis.bytes, 3 + 6 + 2 + 4 + 2);
    assert.equal(analysis.characters, 1 + 6 + 1 + 1 + 2);
    assert.equal(analysis.validJson, true, "a leading BOM does not make JSON invalid");
  });

  test("lone surrogates count as one character each", () => {
    assert.equal(countCodePoints("a\ud800b\udc00"), 4);
    assert.equal(countCodePoints("😀😀"), 2);
  });
});

describe("JSON bodies", () => {
  test("huge integers survive in formatted", () => {
    const analysis = analyzeBody('{"id":1234567890123456789,"n":-0.10e+2}', "application/json");
    assert.equal(analysis.formatted, '{\n  "id": 1234567890123456789,\n  "n": -0.10e+2\n}');
  });

  test("top-level arrays", () => {
    const analysis = analyzeBody('[{"a":1},{"b":{"c":2}}]', null);
    assert.deepEqual(analysis.metrics, { depth: 3, keys: 3 });
  });

  test("invalid JSON is shown as given with the parser's message", () => {
    const analysis = analyzeBody('{"a":1,}', "application/json");
    assert.equal(analysis.formatted, '{"a":1,}');
    assert.match(analysis.jsonError ?? "", /member name.*line 1, column 8/);
    assert.equal(analysis.metrics, null);
  });

  test("deep nesting is measured, and shown as sent when pretty-printing would explode", () => {
    const depth = 100_000;
    const body = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    const analysis = analyzeBody(body, "application/json");
    assert.equal(analysis.metrics?.depth, depth);
    assert.equal(analysis.formatted, body);
    assert.match(analysis.notes[0] ?? "", /100000 levels/);
  });
});

describe("form bodies", () => {
  test("+ is a space, then %XX is UTF-8; bad escapes stay as written", () => {
    assert.equal(decodeComponent("a+b%20c%C3%A9%zz%4"), "a b cé%zz%4");
    assert.equal(decodeComponent("%FF%41"), "\ufffdA");
    assert.equal(decodeComponent("%2B+"), "+ ");
  });

  test("fields in order, repeated names separate, a final line break dropped", () => {
    assert.deepEqual(decodeForm("a=1&b=&c&a=2&&d=x%3Dy\r\n"), [
      { name: "a", value: "1" },
      { name: "b", value: "" },
      { name: "c", value: "" },
      { name: "a", value: "2" },
      { name: "d", value: "x=y" },
    ]);
  });

  test("recognised by its characters", () => {
    assert.equal(looksLikeForm("a=1&b=two+words%21\n"), true);
    assert.equal(looksLikeForm("no equals"), false);
    assert.equal(looksLikeForm("a = 1"), false);
    assert.equal(looksLikeForm('a="1"'), false);
  });

  // A form is not JSON itself; depth, keys and formatted describe the JSON its field holds.
  test("a field holding JSON is measured and embedded in formatted, but the body is not JSON", () => {
    const payload = encodeURIComponent(
      '{"type":"block_actions","actions":[{"action_ts":"1548426417.840180"}]}',
    );
    const analysis = analyzeBody(`payload=${payload}`, "application/x-www-form-urlencoded");
    assert.equal(analysis.validJson, false);
    assert.deepEqual(analysis.jsonFields, [{ field: "payload", valid: true, depth: 3, totalKeys: 3 }]);
    assert.deepEqual(analysis.metrics, { depth: 3, keys: 3 });
    assert.equal(
      analysis.formatted,
      '{\n  "payload": {\n    "type": "block_actions",\n    "actions": [\n      {\n        "action_ts": "1548426417.840180"\n      }\n    ]\n  }\n}',
    );
  });

  test("a field that opens like JSON but does not parse is listed as invalid, with its error", () => {
    const analysis = analyzeBody("payload=%7Bbroken&x=1", "application/x-www-form-urlencoded");
    assert.equal(analysis.validJson, false);
    assert.deepEqual(analysis.jsonFields, [{ field: "payload", valid: false, depth: null, totalKeys: null }]);
    assert.match(analysis.jsonError ?? "", /^Field "payload"/);
    assert.equal(analysis.metrics, null);
  });

  test("a plain form is not JSON and has no JSON fields", () => {
    const analysis = analyzeBody("a=1&b=2", null);
    assert.equal(analysis.validJson, false);
    assert.deepEqual(analysis.jsonFields, []);
    assert.equal(analysis.metrics, null);
    assert.equal(analysis.formatted, '{\n  "a": "1",\n  "b": "2"\n}');
  });
});
