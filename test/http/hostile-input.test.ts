/**
 * Hostile request bodies. Field names a client picks are named back whatever they are
 * called, and a malformed body's detail says where it breaks, never what it holds.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";

describe("hostile request bodies", () => {
  let t: TestApp;
  let key: string;
  const suite = untilSuiteEnds();
  const post = (payload: string) =>
    t.app.inject({ method: "POST", url: "/v1/tool/echo", headers: json(bearer(key)), payload });

  before(async () => {
    t = await createTestApp({}, suite);
    key = await t.key("builder");
  });

  it("names unknown fields called like Object.prototype members", async () => {
    const names = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];
    const body = `{"value": 1, ${names.map((name) => `"${name}": 1`).join(", ")}}`;
    const problem = assertProblem(await post(body), 400, "validation_error");
    assert.deepEqual(
      Object.keys(problem.fields as object).sort(),
      [...names].sort(),
      JSON.stringify(problem.fields),
    );
    for (const name of names)
      assert.equal(Object.getOwnPropertyDescriptor(problem.fields, name)?.value, "is not a known field");
  });

  it("names a known field beside them, and charges nothing", async () => {
    const problem = assertProblem(await post('{"value": "abc", "constructor": {}}'), 400, "validation_error");
    assert.deepEqual(problem.fields, {
      value: "must be a number or a numeric string",
      constructor: "is not a known field",
    });
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.json().credits_used, 0);
  });

  it("says where a malformed body breaks, without quoting any of it", async () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    for (const [body, where] of [
      [`{"value": ${secret}}`, "line 1, column 11"],
      [`{"value": 1,\n  "note": "${secret}" "x": 1}`, "line 2, column 52"],
      [`{"note": "${secret}", }`, "line 1, column 52"],
      [`${secret}`, "line 1, column 1"],
    ] as const) {
      const problem = assertProblem(await post(body), 400, "validation_error");
      const detail = String(problem.detail);
      assert.ok(detail.includes(where), `${detail} names ${where}`);
      assert.equal(problem.fields, undefined);
      for (let i = 0; i + 4 <= secret.length; i++)
        assert.ok(!detail.includes(secret.slice(i, i + 4)), `${detail} quotes the body`);
      assert.ok(!detail.includes('"value'), `${detail} quotes the body`);
    }
  });

  it("names a query parameter given twice, on every read that takes one", async () => {
    for (const [url, name] of [
      ["/v1/tools/search?q=a&q=b", "q"],
      ["/v1/tools/search?q=a&limit=1&limit=2", "limit"],
      ["/v1/me/usage?limit=1&limit=2", "limit"],
      ["/v1/me/usage?cursor=a&cursor=b", "cursor"],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url, headers: bearer(key) });
      const problem = assertProblem(res, 400, "validation_error");
      assert.deepEqual(problem.fields, { [name]: "is given more than once" }, url);
    }
  });

  it("names query parameters called like Object.prototype members as unknown", async () => {
    for (const name of ["__proto__", "constructor", "toString"]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/v1/tools/search?q=a&${name}=1`,
        headers: bearer(key),
      });
      const problem = assertProblem(res, 400, "validation_error");
      assert.deepEqual(Object.keys(problem.fields as object), [name], res.body);
    }
  });

  it("answers TRACE, PROPFIND and other methods Node accepts on a declared path with 405 and Allow", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "LOCK", "PURGE"]) {
      for (const [url, allow] of [
        ["/v1/tools/list", "GET, HEAD"],
        ["/v1/tool/echo", "GET, HEAD, POST"],
        ["/healthz", "GET, HEAD"],
        ["/mcp", "POST"],
      ] as const) {
        const res = await t.app.inject({ method: method as "GET", url, headers: bearer(key) });
        assertProblem(res, 405, "method_not_allowed");
        assert.equal(res.headers.allow, allow, `${method} ${url}`);
      }
    }
  });

  it("does not echo a path or slug it cannot find", async () => {
    const secret = key.slice("tr_live_".length);
    for (const url of [`/v1/tool/${key}`, `/v1/${key}/x`, `/tools/${key}`]) {
      const res = await t.app.inject({ method: "GET", url, headers: bearer(key) });
      assert.equal(res.statusCode, 404, url);
      assert.ok(!res.body.includes(secret), `${url} echoed: ${res.body}`);
    }
  });
});
