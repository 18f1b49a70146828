/**
 * Client ID metadata documents: a client whose id is an https URL is fetched, never stored, and
 * the fetch is refused for loopback and private addresses unless the operator allows them
 * (TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH, for tests). The fetch that succeeds is in the system tests,
 * where the server process can be told to trust the test host's certificate.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { untilSuiteEnds } from "../helpers/app.ts";
import { type OAuthApp, Person, REDIRECT_URL, startOAuthApp } from "./helpers.ts";
import { IndependentClient } from "./independent-client.ts";
import { type MetadataHost, startMetadataHost } from "./metadata-host.ts";

describe("client ID metadata documents on a private host", () => {
  let t: OAuthApp;
  let host: MetadataHost;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({}, suite);
    host = await startMetadataHost((clientId) => ({
      client_id: clientId,
      client_name: "Loopback client",
      redirect_uris: [REDIRECT_URL],
      token_endpoint_auth_method: "none",
    }));
  });
  after(() => host.close());

  it("are not fetched from loopback unless allowed: the person is shown invalid_client", async () => {
    const client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    const { url } = await client.authorizationUrl(
      { client_id: host.clientId },
      { redirect_uri: REDIRECT_URL },
    );
    const response = await new Person(t.base).request(url.href);
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("location"), null);
    assert.match(await response.text(), /id="oauth-error">invalid_client</);
    assert.equal(host.fetches(), 0, "no request reached the host");
  });
});
