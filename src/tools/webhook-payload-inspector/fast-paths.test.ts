/**
 * The shortcuts taken for speed agree with plain definitions: code points by iterating the string,
 * pretty-printing against a recursive reference printer,
 * the timestamp scan's pre-filter against parsing every value, and the string scanner's native
 * searches against the errors a character-by-character walk reports.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { countCodePoints } from "./body/body.ts";
import { ARRAY, after, type JsonDoc, OBJECT, parseJson, rawText } from "./body/json.ts";
import { prettyPrint } from "./body/tree.ts";
import { findTimestamps, parseEpoch, parseIsoDateTime } from "./timestamps.ts";

const YEAR_0 = new Date("0000-01-01T00:00:00Z");
const YEAR_9999 = new Date("9999-12-31T23:59:59Z");

function parsed(text: string): JsonDoc {
  const result = parseJson(text);
  assert.ok(result.ok, `expected valid JSON: ${text}`);
  return result.doc;
}

/** JSON.stringify(value, null, 2)'s layout with tokens as written, by plain recursion. */
function referencePretty(doc: JsonDoc, node: number, indent: string): string {
  const kind = doc.kind[node];
  if (kind !== OBJECT && kind !== ARRAY) return rawText(doc, node);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (let child = node + 1; child < (doc.end[node] ?? 0); child = after(doc, child)) {
    if (kind === OBJECT) {
      lines.push(`${inner}${rawText(doc, child)}: ${referencePretty(doc, child + 1, inner)}`);
      child++;
    } else {
      lines.push(`${inner}${referencePretty(doc, child, inner)}`);
    }
  }
  const [open, close] = kind === OBJECT ? ["{", "}"] : ["[", "]"];
  return lines.length === 0 ? open + close : `${open}\n${lines.join(",\n")}\n${indent}${close}`;
}

const whitespace = fc.constantFrom("", "", " ", "\n  ", "\t", "\r\n");
const scalarText = fc.oneof(
  fc.constantFrom(
    "0",
    "-0",
    "1.50",
    "2E+10",
    "12345678901234567890",
    "true",
    "false",
    "null",
    '"caf\\u00e9"',
    '"\\/"',
    '"a\\"b"',
    '"😀"',
    '"\\ud800"',
    '"2023-11-14T22:13:20Z"',
  ),
  fc.jsonValue({ maxDepth: 0 }).map((value) => JSON.stringify(value)),
);
/** JSON text with the freedoms JSON.stringify never takes: spacing, escapes, repeated names. */
const jsonText = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalarText, tie("array"), tie("object")),
  array: fc
    .tuple(fc.array(fc.tuple(whitespace, tie("value")), { maxLength: 4 }), whitespace)
    .map(([items, end]) => `[${items.map(([space, item]) => space + item).join(",")}${end}]`),
  object: fc
    .tuple(
      fc.array(
        fc.tuple(fc.constantFrom('"a"', '"a"', '"b"', '"1"', '"\\u0061"', '""'), whitespace, tie("value")),
        {
          maxLength: 4,
        },
      ),
      whitespace,
    )
    .map(
      ([members, end]) =>
        `{${members.map(([key, space, value]) => `${space}${key}:${space}${value}`).join(",")}${end}}`,
    ),
})).value;

describe("fast paths agree with their plain definitions", () => {
  test("countCodePoints counts what string iteration counts, lone surrogates included", () => {
    const units = fc.array(
      fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })),
    );
    fc.assert(
      fc.property(
        units.map((codes) => String.fromCharCode(...codes)),
        (text) => {
          assert.equal(countCodePoints(text), [...text].length);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("prettyPrint matches a recursive reference printer, and gives up exactly past the budget", () => {
    fc.assert(
      fc.property(jsonText, fc.double({ min: 0, max: 1.2, noNaN: true }), (text, share) => {
        const doc = parsed(text);
        const expected = referencePretty(doc, 0, "");
        assert.equal(prettyPrint(doc, 1 << 20), expected);
        for (const budget of [Math.floor(expected.length * share), expected.length, expected.length - 1]) {
          assert.equal(
            prettyPrint(doc, budget),
            expected.length > budget ? null : expected,
            `budget ${budget}`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  test("the timestamp scan's pre-filter never drops a value that parses as a timestamp", () => {
    // Lengths straddle the limits the pre-filter relies on: 64 for date-times, 24 for epochs.
    const fraction = fc
      .tuple(fc.constantFrom(".", ","), fc.integer({ min: 1, max: 50 }))
      .map(([mark, n]) => mark + "5".repeat(n));
    const zone = fc.constantFrom("", "Z", "z", "+05:30", "-0800", "+01");
    const candidate = fc.oneof(
      fc.stringMatching(/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2})?$/),
      fc
        .tuple(fc.date({ noInvalidDate: true, min: YEAR_0, max: YEAR_9999 }), fraction, zone)
        .map(([date, digits, offset]) => `${date.toISOString().slice(0, 19)}${digits}${offset}`),
      fc
        .tuple(fc.integer({ min: 900_000_000, max: 5_000_000_000_000 }), fc.stringMatching(/^(\.\d{0,14})?$/))
        .map(([whole, digits]) => `${whole}${digits}`),
      fc.stringMatching(/^\d{1,30}$/),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        candidate,
        fc.constantFrom("created_at", "id"),
        fc.boolean(),
        (value, name, escapeFirst) => {
          const iso = parseIsoDateTime(value);
          const epoch = name === "created_at" && /^\d/.test(value) ? parseEpoch(value) : null;
          const expected = iso ?? epoch;
          let literal = JSON.stringify(value);
          // The same value with its first character escaped takes the path that decodes first.
          if (escapeFirst && value !== "") {
            const code = value.charCodeAt(0).toString(16).padStart(4, "0");
            literal = `"\\u${code}${JSON.stringify(value.slice(1)).slice(1)}`;
          }
          const scan = findTimestamps({ doc: parsed(`{"${name}":${literal}}`), node: 0 });
          assert.equal(scan.total, expected === null ? 0 : 1, value);
          if (expected !== null) assert.equal(scan.rows[0]?.unix, expected.unix);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test("parseIsoDateTime reads every four-digit year as Date does, years 0-99 included", () => {
    const year100 = new Date("0100-01-01T00:00:00Z");
    const date = fc.oneof(
      fc.date({ noInvalidDate: true, min: YEAR_0, max: year100 }),
      fc.date({ noInvalidDate: true, min: YEAR_0, max: YEAR_9999 }),
    );
    fc.assert(
      fc.property(date, (value) => {
        assert.equal(parseIsoDateTime(value.toISOString())?.unix, Math.floor(value.getTime() / 1000));
      }),
      { numRuns: 1000 },
    );
  });

  test("strings read by native search fail where a character walk fails", () => {
    const cases: Array<[string, string]> = [
      [
        '["a", "b\u0001"]',
        "Control character in a string (it must be escaped) at line 1, column 9 (character 9)",
      ],
      [
        '[\n"a",\n"b\tc"]',
        "Control character in a string (it must be escaped) at line 3, column 3 (character 10)",
      ],
      [
        '{"a\u001f": 1}',
        "Control character in a string (it must be escaped) at line 1, column 4 (character 4)",
      ],
      [
        '["x\\"y", "z\u0000"]',
        "Control character in a string (it must be escaped) at line 1, column 12 (character 12)",
      ],
      [
        '[\n\n  "ok",\n  "new\nline"\n]',
        "Control character in a string (it must be escaped) at line 4, column 7 (character 18)",
      ],
      ['"\\"\u0002"', "Control character in a string (it must be escaped) at line 1, column 4 (character 4)"],
      ['["\\q"]', "Bad escape in a string at line 1, column 3 (character 3)"],
      ['["\\u12G4"]', "Bad \\u escape in a string at line 1, column 3 (character 3)"],
      ['["abc', "Unterminated string at line 1, column 6 (character 6)"],
      ['["a\\', "Bad escape in a string at line 1, column 4 (character 4)"],
    ];
    for (const [text, error] of cases) {
      const result = parseJson(text);
      assert.equal(result.ok ? "valid" : result.error, error, JSON.stringify(text));
    }
  });

  test("strings with control characters and backslashes anywhere: valid exactly when JSON.parse says so", () => {
    const piece = fc.oneof(
      fc.constantFrom('"a"', '"\\\\"', '"\\""', "\n", "\t", "\u0001", "\\", '"', ",", "[", "]"),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = `[${pieces.join("")}]`;
        let expected = true;
        try {
          JSON.parse(text);
        } catch {
          expected = false;
        }
        assert.equal(parseJson(text).ok, expected, JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
  });
});
