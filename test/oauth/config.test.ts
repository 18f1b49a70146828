/**
 * The OAuth variables: on by default where the public URL allows (https, or http on a loopback
 * host, at the root of its origin); off with a reason otherwise, or an error when TOOLRUN_OAUTH
 * asks for it there; the token lifetime, the registrations an address may make and the
 * private-fetch switch checked like every variable.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("OAuth configuration", () => {
  it("is on by default on a loopback public URL, with an hour's access tokens", () => {
    const config = loadConfig({});
    assert.deepEqual(config.oauth, {
      issuer: "http://127.0.0.1:8080",
      resource: "http://127.0.0.1:8080/mcp",
      accessTokenTtlS: 3600,
      allowPrivateFetch: false,
      registrationsPerHour: 60,
    });
    assert.equal(config.oauthOff, null);
  });

  it("is on for an https public URL, and reads its variables", () => {
    const config = loadConfig({
      TOOLRUN_PUBLIC_URL: "https://tools.example.com/",
      TOOLRUN_OAUTH: "on",
      TOOLRUN_OAUTH_ACCESS_TTL_S: "900",
      TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH: "true",
      TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR: "500",
    });
    assert.deepEqual(config.oauth, {
      issuer: "https://tools.example.com",
      resource: "https://tools.example.com/mcp",
      accessTokenTtlS: 900,
      allowPrivateFetch: true,
      registrationsPerHour: 500,
    });
  });

  it("is off when TOOLRUN_OAUTH=off", () => {
    const config = loadConfig({ TOOLRUN_OAUTH: "off" });
    assert.equal(config.oauth, null);
    assert.equal(config.oauthOff, null);
  });

  it("stays off, saying why, on a plain-http public URL that is not loopback or that has a path", () => {
    for (const url of ["http://tools.example.com", "http://0.0.0.0:8080", "https://example.com/toolrun"]) {
      const config = loadConfig({ TOOLRUN_PUBLIC_URL: url });
      assert.equal(config.oauth, null, url);
      assert.match(config.oauthOff ?? "", /TOOLRUN_PUBLIC_URL/, url);
      assert.match(config.oauthOff ?? "", /API keys work as always/);
    }
  });

  it("refuses TOOLRUN_OAUTH=on where it cannot work, and bad values, naming each variable", () => {
    assert.deepEqual(
      problems({ TOOLRUN_PUBLIC_URL: "http://tools.example.com", TOOLRUN_OAUTH: "on" }).map(
        (p) => p.split(",")[0],
      ),
      ["TOOLRUN_OAUTH is on"],
    );
    const found = problems({
      TOOLRUN_OAUTH: "maybe",
      TOOLRUN_OAUTH_ACCESS_TTL_S: "30",
      TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH: "yes",
      TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR: "0",
    });
    assert.equal(found.length, 4);
    assert.match(found[0] ?? "", /^TOOLRUN_OAUTH must be "on" or "off"/);
    assert.match(found[1] ?? "", /^TOOLRUN_OAUTH_ACCESS_TTL_S must be whole seconds from 60 to 86400/);
    assert.match(
      found[2] ?? "",
      /^TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR must be an integer from 1 to 1000000/,
    );
    assert.match(found[3] ?? "", /^TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH must be "true" or "false"/);
  });
});
