import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseJson } from "./body/json.ts";
import { findTimestamps, httpDate, isTimeLikeKey, parseEpoch, parseIsoDateTime } from "./timestamps.ts";

const scan = (text: string, limit?: number) => {
  const parsed = parseJson(text);
  assert.ok(parsed.ok);
  return findTimestamps({ doc: parsed.doc, node: 0 }, limit);
};

describe("parseIsoDateTime", () => {
  test("zones and offsets are applied; sub-seconds are dropped", () => {
    const cases: Array<[string, string]> = [
      ["2023-11-14T22:13:20Z", "Tue, 14 Nov 2023 22:13:20 GMT"],
      ["2023-11-14T22:13:20.999999999Z", "Tue, 14 Nov 2023 22:13:20 GMT"],
      ["2023-11-15T03:43:20+05:30", "Tue, 14 Nov 2023 22:13:20 GMT"],
      ["2023-11-14T14:13:20-0800", "Tue, 14 Nov 2023 22:13:20 GMT"],
      ["2023-11-14 23:13:20+01", "Tue, 14 Nov 2023 22:13:20 GMT"],
      ["2023-11-14t22:13z", "Tue, 14 Nov 2023 22:13:00 GMT"],
      ["2024-02-29T00:00:00Z", "Thu, 29 Feb 2024 00:00:00 GMT"],
      ["0999-01-01T00:00:00Z", "Tue, 01 Jan 0999 00:00:00 GMT"],
    ];
    for (const [text, utc] of cases) {
      const instant = parseIsoDateTime(text);
      assert.ok(instant, text);
      assert.equal(httpDate(instant.unix), utc, text);
      assert.equal(instant.kind, "iso8601");
    }
  });

  test("zone-less date-times are read as UTC and marked", () => {
    const instant = parseIsoDateTime("2009-03-26 21:35:57");
    assert.equal(instant?.kind, "iso8601-no-zone");
    assert.equal(httpDate(instant?.unix ?? 0), "Thu, 26 Mar 2009 21:35:57 GMT");
  });

  test("not date-times", () => {
    for (const text of [
      "2023-11-14",
      "2023-02-30T00:00:00Z",
      "2023-11-14T24:00:00Z",
      "2023-13-01T00:00Z",
      "14/11/2023 10:00",
      "2023-11-14T22:13:20+25:00",
      "x2023-11-14T22:13:20Z",
    ]) {
      assert.equal(parseIsoDateTime(text), null, text);
    }
  });
});

describe("parseEpoch", () => {
  test("seconds and milliseconds between 2000 and 2100, fractions dropped", () => {
    assert.deepEqual(parseEpoch("1700000000"), { unix: 1700000000, kind: "epoch-seconds" });
    assert.deepEqual(parseEpoch("1531420618.000005"), { unix: 1531420618, kind: "epoch-seconds" });
    assert.deepEqual(parseEpoch("1700000000123"), { unix: 1700000000, kind: "epoch-milliseconds" });
    for (const text of [
      "0",
      "123",
      "946684799",
      "4102444800",
      "99999999999",
      "-1700000000",
      "1e9",
      "",
      "17000000001234567",
    ]) {
      assert.equal(parseEpoch(text), null, text);
    }
  });
});

describe("isTimeLikeKey", () => {
  test("time words anywhere in the name", () => {
    for (const key of [
      "created_at",
      "createdAt",
      "timestamp",
      "ts",
      "event_ts",
      "exp",
      "iat",
      "date",
      "time",
      "webhookTimestamp",
      "occurredAt",
      "created",
      "fired_at",
      "sent-at",
    ]) {
      assert.equal(isTimeLikeKey(key), true, key);
    }
    for (const key of ["id", "amount", "format", "update", "status", "count", "data"]) {
      assert.equal(isTimeLikeKey(key), false, key);
    }
  });
});

describe("findTimestamps", () => {
  test("paths, raw values as found, document order", () => {
    const result = scan(
      '{"repository":{"created_at":1296068472,"pushed_at":"2024-01-26T19:06:43Z"},"items":[{"ts":"1355517523.000005"},{"x":1},{"ts":1700000000123}],"weird key":{"date":"2023-11-14T22:13:20Z"}}',
    );
    assert.deepEqual(
      result.rows.map((r) => [r.field, r["raw-value"], r.kind]),
      [
        ["repository.created_at", "1296068472", "epoch-seconds"],
        ["repository.pushed_at", "2024-01-26T19:06:43Z", "iso8601"],
        ["items[0].ts", "1355517523.000005", "epoch-seconds"],
        ["items[2].ts", "1700000000123", "epoch-milliseconds"],
        ['["weird key"].date', "2023-11-14T22:13:20Z", "iso8601"],
      ],
    );
    assert.equal(result.rows[3]?.utc, "Tue, 14 Nov 2023 22:13:20 GMT");
  });

  test("never booleans, 0, ids or numbers under other keys; ISO strings under any key", () => {
    const result = scan(
      '{"created":true,"updated_at":0,"id":1700000000,"exp":false,"note":"2023-11-14T22:13:20Z","time":null}',
    );
    assert.deepEqual(
      result.rows.map((r) => r.field),
      ["note"],
    );
  });

  test("top-level arrays and array items under a time-like name", () => {
    const result = scan('[{"timestamp":1700000000},{"ts":[1700000000,1700000001]}]');
    assert.deepEqual(
      result.rows.map((r) => r.field),
      ["[0].timestamp", "[1].ts[0]", "[1].ts[1]"],
    );
  });

  test("rows stop at the limit while the total keeps counting", () => {
    const result = scan(JSON.stringify(Array.from({ length: 30 }, () => ({ ts: 1700000000 }))), 10);
    assert.equal(result.rows.length, 10);
    assert.equal(result.total, 30);
  });

  test("very deep paths keep their last segments", () => {
    const depth = 100;
    const result = scan(`${'{"a":'.repeat(depth)}{"ts":1700000000}${"}".repeat(depth)}`);
    assert.match(result.rows[0]?.field ?? "", /^….*\.a\.ts$/);
  });
});
