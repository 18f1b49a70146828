import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

const SIGNIN = {
  TOOLRUN_SIGNIN_ISSUER: "https://accounts.example.com/",
  TOOLRUN_SIGNIN_CLIENT_ID: "toolrun-console",
  TOOLRUN_SIGNIN_CLIENT_SECRET: "s3cret-s3cret",
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return [...error.problems];
  }
}

describe("members' sign-in configuration", () => {
  it("is off unless its three variables are set, and the console then stays as it is", () => {
    assert.equal(loadConfig({}).signin, null);
    assert.equal(loadConfig({ TOOLRUN_SIGNUP: "invite" }).signin, null);
  });

  it("is on with the three, its callback on the public URL, open sign-up on the free plan by default", () => {
    const config = loadConfig({ ...SIGNIN, TOOLRUN_PUBLIC_URL: "https://tools.example.com" });
    assert.deepEqual(config.signin, {
      issuer: "https://accounts.example.com",
      clientId: "toolrun-console",
      clientSecret: "s3cret-s3cret",
      redirectUri: "https://tools.example.com/signin/callback",
      secure: true,
      members: { signup: "open", signupPlan: "free" },
    });
    const invite = loadConfig({ ...SIGNIN, TOOLRUN_SIGNUP: "invite", TOOLRUN_SIGNUP_PLAN: "builder" });
    assert.deepEqual(invite.signin?.members, { signup: "invite", signupPlan: "builder" });
    assert.equal(invite.signin?.secure, false);
  });

  it("names what is wrong: some of the three, an unknown plan, a public URL a provider cannot send back to", () => {
    assert.deepEqual(problems({ TOOLRUN_SIGNIN_ISSUER: SIGNIN.TOOLRUN_SIGNIN_ISSUER }), [
      "TOOLRUN_SIGNIN_ISSUER, TOOLRUN_SIGNIN_CLIENT_ID and TOOLRUN_SIGNIN_CLIENT_SECRET must be set together (sign-in is off with none of them)",
    ]);
    assert.deepEqual(problems({ ...SIGNIN, TOOLRUN_SIGNUP_PLAN: "gold" }), [
      'TOOLRUN_SIGNUP_PLAN must be a plan\'s id (free, builder), got "gold"',
    ]);
    assert.deepEqual(problems({ ...SIGNIN, TOOLRUN_PUBLIC_URL: "http://tools.example.com" }), [
      'TOOLRUN_SIGNIN_ISSUER is set, but TOOLRUN_PUBLIC_URL is "http://tools.example.com": sign-in needs https, or http on a loopback host',
    ]);
    assert.deepEqual(problems({ ...SIGNIN, TOOLRUN_SIGNIN_ISSUER: "http://id.example.com" }), [
      'TOOLRUN_SIGNIN_ISSUER must be an https URL (http only on a loopback host), got "http://id.example.com"',
    ]);
    assert.deepEqual(problems({ ...SIGNIN, TOOLRUN_SIGNUP: "closed" }), [
      'TOOLRUN_SIGNUP must be "open" or "invite", got "closed"',
    ]);
  });
});
