/**
 * How the PostgreSQL adapters classify driver errors: outages become BackendUnavailableError,
 * a missing table or ledger function SchemaNotReadyError, and everything else passes through untouched.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toPortError } from "../../src/adapters/postgres/errors.ts";
import { BackendUnavailableError, SchemaNotReadyError } from "../../src/ports/errors.ts";

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("PostgreSQL error classification", () => {
  const outages: [string, unknown][] = [
    ["refused", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["reset", withCode("read ECONNRESET", "ECONNRESET")],
    ["happy eyeballs", new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")])],
    ["terminated", new Error("Connection terminated unexpectedly")],
    ["connect timeout", new Error("timeout exceeded when trying to connect")],
    ["admin shutdown", withCode("terminating connection due to administrator command", "57P01")],
    ["starting up", withCode("the database system is starting up", "57P03")],
    ["too many", withCode("sorry, too many clients already", "53300")],
    ["connection exception", withCode("connection failure", "08006")],
    ["wrapped", new Error("outer", { cause: withCode("inner", "ECONNREFUSED") })],
  ];
  for (const [name, err] of outages) {
    it(`treats ${name} as the database being unavailable`, () => {
      const mapped = toPortError("database", err);
      assert.ok(mapped instanceof BackendUnavailableError);
      assert.equal(mapped.backend, "database");
      assert.equal(mapped.cause, err);
    });
  }

  it("names the rate limiter when it is the one that failed", () => {
    const mapped = toPortError("rate-limiter", withCode("refused", "ECONNREFUSED"));
    assert.ok(mapped instanceof BackendUnavailableError);
    assert.equal(mapped.backend, "rate-limiter");
  });

  it("treats a missing relation as a schema that is not ready", () => {
    const err = withCode('relation "api_keys" does not exist', "42P01");
    const mapped = toPortError("database", err);
    assert.ok(mapped instanceof SchemaNotReadyError);
    assert.equal(mapped.cause, err);
  });

  it("treats a missing ledger function as a schema that is not ready, but not other undefined functions", () => {
    const missing = withCode("function toolrun_settle(text, integer, integer, text) does not exist", "42883");
    assert.ok(toPortError("database", missing) instanceof SchemaNotReadyError);
    const operator = withCode("operator does not exist: text + integer", "42883");
    assert.equal(toPortError("database", operator), operator);
    const theirs = withCode("function lower(integer) does not exist", "42883");
    assert.equal(toPortError("database", theirs), theirs);
  });

  it("passes other errors through unchanged", () => {
    const unique = withCode("duplicate key value violates unique constraint", "23505");
    assert.equal(toPortError("database", unique), unique);
    const bug = new TypeError("x is not a function");
    assert.equal(toPortError("database", bug), bug);
  });
});
