/**
 * Hostile input near the 1 MiB body limit must finish, with correct counts, without exhausting the
 * stack: parsing is linear and every walk is iterative. Speed is the benchmark's business; here a
 * generous runner timeout only catches a quadratic or backtracking blow-up, which on 1 MiB takes
 * minutes, not seconds.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { rawRequest, row, run } from "../../../test/helpers/tools/webhook-payload-inspector.ts";

const MIB = 1024 * 1024;
const BLOW_UP_GUARD = { timeout: 30_000 };

describe("about 1 MiB of hostile input", BLOW_UP_GUARD, () => {
  test("unclosed brackets", () => {
    const out = run(rawRequest(["Content-Type: application/json"], "[".repeat(MIB)));
    assert.equal(row(out, "Valid JSON"), "No");
    assert.match(out.values.jsonError ?? "", /end of JSON/);
  });

  test("half a million levels of arrays", () => {
    const depth = MIB / 2;
    const body = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const out = run(body);
    assert.equal(row(out, "Depth"), String(depth));
    assert.equal(row(out, "Total Keys"), "0");
    assert.equal(out.formatted, body, "too deep to pretty-print, so shown as sent");
  });

  test("deeply nested objects with a timestamp at the bottom", () => {
    const depth = 150_000;
    const body = `${'{"a":'.repeat(depth)}{"ts":1700000000}${"}".repeat(depth)}`;
    const out = run(body);
    assert.equal(row(out, "Depth"), String(depth + 1));
    assert.equal(row(out, "Total Keys"), String(depth + 1));
    assert.equal(out.timestamps[0]?.utc, "Tue, 14 Nov 2023 22:13:20 GMT");
    assert.match(out.timestamps[0]?.field ?? "", /^…a\.a\..*\.ts$/);
  });

  test("a million header-ish characters on one line", () => {
    const out = run(`X-Long: ${"v ".repeat(MIB / 2)}\n\n{}`);
    assert.equal(row(out, "Header Count"), "1");
    assert.equal(out.headers[0]?.value.length, MIB - 1);
  });

  test("`a:` repeated", () => {
    const out = run("a:".repeat(MIB / 2));
    assert.equal(row(out, "Header Count"), "1");
    assert.equal(out.headers[0]?.header, "a");
  });

  test("eighty thousand header lines", () => {
    const lines = Array.from({ length: 80_000 }, (_, i) => `X-H${i % 7}: ${i}`);
    const out = run(rawRequest(lines, "{}"));
    assert.equal(row(out, "Header Count"), "80000");
  });

  test("a header folded over two hundred thousand lines", () => {
    const out = run(`X-A: start\n${" more\n".repeat(200_000)}\nbody`);
    assert.equal(row(out, "Header Count"), "1");
    assert.equal(out.headers[0]?.value.length, "start".length + " more".length * 200_000);
  });

  test("long lines of spaces and words", () => {
    const line = `${"word ".repeat(2000)}\n`;
    const out = run(line.repeat(100));
    assert.equal(row(out, "Format"), "Text");
    assert.equal(row(out, "Header Count"), "0");
  });

  test("a form of a hundred thousand fields", () => {
    const body = Array.from({ length: 100_000 }, (_, i) => `f${i}=${i % 10}`).join("&");
    const out = run(rawRequest(["Content-Type: application/x-www-form-urlencoded"], body));
    assert.equal(out.values.format, "form");
    assert.equal(out.formatted.split("\n").length, 100_002);
  });

  test("fifty thousand timestamps: rows capped, total counted", () => {
    const body = JSON.stringify(Array.from({ length: 50_000 }, (_, i) => ({ created_at: 1700000000 + i })));
    const out = run(body);
    assert.equal(out.timestamps.length, 1000);
    assert.equal(out.values.timestampsTotal, 50_000);
    assert.equal(row(out, "Timestamps Found"), "1000");
  });

  test("one enormous string value", () => {
    const out = run(`{"a":"${"x\\u0041".repeat(MIB / 8)}"}`);
    assert.equal(row(out, "Valid JSON"), "Yes");
  });
});
