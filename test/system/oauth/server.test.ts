/**
 * OAuth against a real `toolrun serve` process on a SQLite file: a client registered by RFC 7591
 * and one named by a client ID metadata document (on a loopback https host the process is told
 * to trust, with TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH) both sign in and call a tool on the key's
 * account; the typed key, the tokens and the code appear nowhere in the process's output nor in
 * the database file; the CLI lists and revokes a key's authorizations, audited; and registrations
 * are counted per client address, as the trusted proxy in front names it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { initializeMessage, postRpc } from "../../mcp/helpers.ts";
import { freePort, Person, REDIRECT_URL } from "../../oauth/helpers.ts";
import { IndependentClient, oauth } from "../../oauth/independent-client.ts";
import { type MetadataHost, startMetadataHost } from "../../oauth/metadata-host.ts";

const CALCULATOR = "retaining-wall-pressure-calculator";

describe("OAuth on a served process", () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let host: MetadataHost;
  let base: string;
  let key: string;
  let keyId: string;
  /** Every secret the flows below saw: none may be printed or stored. */
  const secrets: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-oauth-"));
    host = await startMetadataHost((clientId) => ({
      client_id: clientId,
      client_name: "Metadata document client",
      redirect_uris: [REDIRECT_URL],
      token_endpoint_auth_method: "none",
    }));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = { TOOLRUN_DATABASE: join(dir, "toolrun.db") };
    server = await startServerProcess({
      ...env,
      PORT: String(port),
      TOOLRUN_PUBLIC_URL: base,
      TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH: "true",
      TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR: "2",
      // The tests' requests come from loopback, as a reverse proxy's would.
      TOOLRUN_TRUST_PROXY: "127.0.0.1",
      NODE_EXTRA_CA_CERTS: host.certificate,
      // The most the log ever says.
      LOG_LEVEL: "trace",
    });
    const created = JSON.parse((await runCli(["keys", "create", "--plan", "builder", "--json"], env)).stdout);
    key = created.key;
    keyId = created.id;
    secrets.push(key);
  });

  after(async () => {
    await server.stop();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function callTool(accessToken: string) {
    const body = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: CALCULATOR, arguments: { height: 5, unitWeight: 18, frictionAngle: 30 } },
    };
    const headers = { authorization: `Bearer ${accessToken}`, "mcp-protocol-version": "2025-11-25" };
    assert.equal((await postRpc(`${base}/mcp`, initializeMessage(), headers)).status, 200);
    return postRpc(`${base}/mcp`, body, headers);
  }

  async function creditsUsed(): Promise<number> {
    const response = await fetch(`${base}/v1/me/credits`, { headers: { authorization: `Bearer ${key}` } });
    return ((await response.json()) as { credits_used: number }).credits_used;
  }

  it("says at start that MCP sign-in is on, with its issuer", () => {
    assert.match(server.output(), new RegExp(`MCP sign-in \\(OAuth\\): on, issuer ${base},`));
  });

  it("signs in a registered client and charges its tool call to the key", async () => {
    const client = new IndependentClient(base, `${base}/mcp`);
    const person = new Person(base);
    const signed = await client.signIn(person, key);
    secrets.push(signed.tokens.access_token, signed.tokens.refresh_token ?? "");
    const before = await creditsUsed();
    const answer = await callTool(signed.tokens.access_token);
    assert.equal(answer.status, 200);
    assert.equal((answer.body as { result?: { isError?: boolean } }).result?.isError, undefined);
    assert.equal(await creditsUsed(), before + 1);
  });

  it("signs in a client named by its metadata document, fetched from its https host", async () => {
    const client = new IndependentClient(base, `${base}/mcp`);
    await client.discover();
    const named: oauth.Client = { client_id: host.clientId, token_endpoint_auth_method: "none" };
    const { url, verifier, state } = await client.authorizationUrl(named, { redirect_uri: REDIRECT_URL });
    const person = new Person(base);
    const { html } = await person.openConsent(url);
    assert.match(html, /Metadata document client/);
    assert.ok(host.fetches() >= 1);
    const redirect = await person.answer(html, key, "Approve");
    const callback = oauth.validateAuthResponse(client.as, named, redirect, state);
    secrets.push(callback.get("code") ?? "");
    const response = await client.exchange(named, callback, verifier, REDIRECT_URL);
    const tokens = await oauth.processAuthorizationCodeResponse(client.as, named, response);
    secrets.push(tokens.access_token, tokens.refresh_token ?? "");
    assert.equal((await callTool(tokens.access_token)).status, 200);
  });

  it("lists and revokes the key's authorizations from the CLI, audited", async () => {
    const listed = await runCli(["keys", "authorizations", keyId, "--json"], env);
    assert.equal(listed.code, 0, listed.stderr);
    const authorizations = JSON.parse(listed.stdout) as {
      id: string;
      client_id: string;
      client_name: string;
    }[];
    assert.deepEqual(authorizations.map((a) => a.client_name).sort(), [
      "Metadata document client",
      "oauth4webapi test client",
    ]);
    const document = authorizations.find((a) => a.client_id === host.clientId);
    assert.ok(document);
    const table = await runCli(["keys", "authorizations", keyId], env);
    assert.match(table.stdout, /Metadata document client/);

    const revoked = await runCli(["keys", "deauthorize", keyId, document.id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, new RegExp(`Revoked OAuth authorization ${document.id} of ${keyId}`));
    const again = await runCli(["keys", "deauthorize", keyId, document.id], env);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /authorization_not_found|no OAuth authorization/);
    const after = JSON.parse((await runCli(["keys", "authorizations", keyId, "--json"], env)).stdout);
    assert.equal(after.length, 1);

    const db = new DatabaseSync(env.TOOLRUN_DATABASE ?? "", { readOnly: true });
    try {
      const row = db
        .prepare(
          "SELECT actor_type, action, target, details FROM audit_log WHERE action = 'keys.deauthorize'",
        )
        .get() as Record<string, string>;
      assert.equal(row.actor_type, "cli");
      assert.equal(row.target, keyId);
      assert.deepEqual(JSON.parse(row.details ?? ""), { authorization_id: document.id });
    } finally {
      db.close();
    }
  });

  it("registers two clients an hour per client address the proxy names, then answers 429", async () => {
    const register = (clientAddress: string) =>
      fetch(`${base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": clientAddress },
        body: JSON.stringify({ redirect_uris: [REDIRECT_URL], token_endpoint_auth_method: "none" }),
      });
    assert.equal((await register("203.0.113.1")).status, 201);
    assert.equal((await register("203.0.113.1")).status, 201);
    const refused = await register("203.0.113.1");
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal(((await refused.json()) as { code: string }).code, "rate_limited");
    assert.equal((await register("203.0.113.2")).status, 201);
  });

  it("never prints or stores the typed key, a token or a code", () => {
    assert.ok(secrets.length >= 6 && secrets.every((s) => s.length > 20), "the flows above ran");
    const output = server.output();
    assert.match(output, /\/oauth\/consent\//, "the consent requests were logged");
    assert.match(output, /\/oauth\/token/, "the token requests were logged");
    const files = readdirSync(dir)
      .filter((name) => name.startsWith("toolrun.db"))
      .map((name) => readFileSync(join(dir, name)).toString("latin1"));
    for (const secret of secrets) {
      assert.ok(!output.includes(secret), "a secret is in the server's output");
      for (const file of files) assert.ok(!file.includes(secret), "a secret is in the database file");
    }
  });
});
