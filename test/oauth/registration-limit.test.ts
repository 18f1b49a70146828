/**
 * Dynamic client registration is open to anyone, so each client address may register a number
 * of clients an hour (TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR): past it, 429 `rate_limited` before
 * the library stores anything. The address is the socket's, or the client a trusted proxy names
 * (TOOLRUN_TRUST_PROXY); a header a client sends itself changes nothing.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import type { RateLimiter } from "../../src/ports/rate-limiter.ts";
import { tools } from "../../src/tools/index.ts";
import { untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { type OAuthApp, startOAuthApp } from "./helpers.ts";

const metadata = {
  client_name: "registration test client",
  redirect_uris: ["http://127.0.0.1:4000/callback"],
  token_endpoint_auth_method: "none",
};

function register(t: OAuthApp, from: { remoteAddress?: string; forwardedFor?: string } = {}) {
  return t.app.inject({
    method: "POST",
    url: "/oauth/register",
    headers: {
      "content-type": "application/json",
      ...(from.forwardedFor ? { "x-forwarded-for": from.forwardedFor } : {}),
    },
    payload: JSON.stringify(metadata),
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
  });
}

describe("OAuth client registration, limited per address an hour", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools }, suite, { registrationsPerHour: 2 });
  });

  it("registers up to the limit, then answers 429 rate_limited with when to retry", async () => {
    const from = { remoteAddress: "203.0.113.5" };
    for (let i = 0; i < 2; i++) {
      const registered = await register(t, from);
      assert.equal(registered.statusCode, 201, registered.body);
      assert.ok(registered.json().client_id);
    }
    const refused = await register(t, from);
    const problem = assertProblem(refused, 429, "rate_limited");
    assert.equal(problem.client_id, undefined, "no client was made");
    assert.match(String(problem.detail), /register 2 OAuth clients an hour/);
    // The test clock stands at 12:00:10: the hour's window ends in 3,590 s.
    assert.equal(refused.headers["retry-after"], "3590");
    assert.equal(problem.retry_after, 3590);
    assert.equal(refused.headers["ratelimit-policy"], '"hour";q=2;w=3600');
  });

  it("counts each address apart", async () => {
    assert.equal((await register(t, { remoteAddress: "198.51.100.7" })).statusCode, 201);
  });

  it("ignores an X-Forwarded-For the client sent itself when no proxy is trusted", async () => {
    const spoofed = await register(t, { remoteAddress: "203.0.113.5", forwardedFor: "192.0.2.99" });
    assertProblem(spoofed, 429, "rate_limited");
  });

  it("opens again when the next hour begins", async () => {
    t.clock.advance(3_600_000);
    assert.equal((await register(t, { remoteAddress: "203.0.113.5" })).statusCode, 201);
  });
});

describe("OAuth client registration behind a trusted proxy", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools, appOptions: { trustProxy: ["10.0.0.1"] } }, suite, {
      registrationsPerHour: 1,
    });
  });

  it("counts the client the proxy names, not the proxy", async () => {
    const proxy = "10.0.0.1";
    assert.equal((await register(t, { remoteAddress: proxy, forwardedFor: "203.0.113.20" })).statusCode, 201);
    assert.equal((await register(t, { remoteAddress: proxy, forwardedFor: "203.0.113.21" })).statusCode, 201);
    assertProblem(
      await register(t, { remoteAddress: proxy, forwardedFor: "203.0.113.20" }),
      429,
      "rate_limited",
    );
  });

  it("takes the word of the trusted proxy only", async () => {
    const stranger = { remoteAddress: "192.0.2.50", forwardedFor: "203.0.113.30" };
    assert.equal((await register(t, stranger)).statusCode, 201);
    assertProblem(await register(t, { ...stranger, forwardedFor: "203.0.113.31" }), 429, "rate_limited");
  });
});

describe("OAuth client registration while the rate limiter cannot be reached", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  const unreachable: RateLimiter = {
    hit: async () => {
      throw new BackendUnavailableError("rate-limiter", new Error("connection refused"));
    },
    ping: async () => undefined,
    close: async () => undefined,
  };
  before(async () => {
    t = await startOAuthApp({ tools, limiter: unreachable }, suite);
  });

  it("answers 503 backend_unavailable and registers nothing", async () => {
    const answer = await register(t, { remoteAddress: "203.0.113.40" });
    const problem = assertProblem(answer, 503, "backend_unavailable");
    assert.equal(problem.client_id, undefined);
  });
});
