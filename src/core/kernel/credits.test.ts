import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { periodOf } from "./credits.ts";
import { hashKey } from "./key-format.ts";

const ids = (...moments: string[]) => moments.map((moment) => periodOf(new Date(moment)).id);

describe("periodOf", () => {
  it("gives the UTC calendar month, its first moment and the first moment of the next", () => {
    const period = periodOf(new Date("2026-11-26T17:45:00.000Z"));
    assert.equal(period.id, "2026-11");
    assert.equal(period.start.toISOString(), "2026-11-01T00:00:00.000Z");
    assert.equal(period.end.toISOString(), "2026-12-01T00:00:00.000Z");
  });

  it("moves on at the month's last millisecond, in either direction, however often it is asked", () => {
    assert.deepEqual(
      ids(
        "2026-11-30T23:59:59.999Z",
        "2026-12-01T00:00:00.000Z",
        "2026-11-30T23:59:59.999Z",
        "2026-11-01T00:00:00.000Z",
        "2026-10-31T23:59:59.999Z",
        "2027-01-01T00:00:00.000Z",
        "2026-12-31T23:59:59.999Z",
      ),
      ["2026-11", "2026-12", "2026-11", "2026-11", "2026-10", "2027-01", "2026-12"],
    );
  });

  it("keeps the period of a local midnight that is still the previous day in UTC", () => {
    assert.deepEqual(ids("2026-12-01T00:30:00+01:00", "2026-12-01T00:30:00-01:00"), ["2026-11", "2026-12"]);
  });

  it("refuses an invalid date rather than answering the last month asked for", () => {
    periodOf(new Date("2026-11-26T00:00:00.000Z"));
    assert.throws(() => periodOf(new Date(Number.NaN)), RangeError);
  });
});

describe("hashKey", () => {
  it("is the hex SHA-256 of the key (FIPS 180-2's known answer for 'abc')", () => {
    assert.equal(hashKey("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
