/**
 * Narrowing an OAuth authorization to some tools at consent, end to end: the page offers a box per
 * tool, all checked; a person who unchecks some approves an authorization whose access token, over
 * the MCP SDK's client, lists and calls only the tools left checked that the key may use, and
 * narrowing the key afterwards narrows the token at once. Unchecking every box is refused on the
 * page, with no authorization made.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ProtocolError } from "@modelcontextprotocol/client";
import { listAuthorizations } from "../../src/core/oauth/authorizations.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { connect } from "../mcp/helpers.ts";
import { type OAuthApp, Person, readForm, startOAuthApp } from "./helpers.ts";
import { IndependentClient } from "./independent-client.ts";

const FREE_TOOLS = ["describe_tool", "get_credits", "get_usage", "search_tools"];

describe("OAuth consent narrowed to some tools", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({}, suite);
  });

  const listed = async (credential: string) => {
    const client = await connect(t.mcp, credential, "2025-11-25");
    try {
      return (await client.listTools()).tools.map((tool) => tool.name).sort();
    } finally {
      await client.close();
    }
  };

  it("offers a checked box per tool, labelled with the tool's name", async () => {
    const client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    const { url } = await client.authorizationUrl(await client.register());
    const { html } = await new Person(t.base).openConsent(url);
    assert.deepEqual(
      readForm(html)
        .checked()
        .map((box) => [box.name, box.value, box.label]),
      [
        ["tools", "echo", "Echo"],
        ["tools", "heavy-text", "Heavy Text Counter"],
      ],
    );
  });

  it("acts only with the tools left checked, and with fewer once the key is narrowed", async () => {
    const key = await t.key("free", 1000);
    const signed = await new IndependentClient(t.base, t.mcp).signIn(new Person(t.base), key, [
      "Heavy Text Counter",
    ]);
    const token = signed.tokens.access_token;
    assert.deepEqual(await listed(token), ["echo", ...FREE_TOOLS].sort());
    assert.deepEqual(
      await listed(key),
      ["echo", "heavy-text", ...FREE_TOOLS].sort(),
      "the key itself is whole",
    );

    const client = await connect(t.mcp, token, "2025-11-25");
    try {
      await assert.rejects(
        client.callTool({ name: "heavy-text", arguments: { text: "abc" } }),
        (error: unknown) => error instanceof ProtocolError && error.code === -32602,
      );
      const echo = await client.callTool({ name: "echo", arguments: { value: 2 } });
      assert.equal(echo.isError, undefined, JSON.stringify(echo));
      const credits = await client.callTool({ name: "get_credits", arguments: {} });
      const record = await t.recordOf(key);
      assert.deepEqual((credits.structuredContent as { key: unknown }).key, {
        id: record.id,
        tools: ["echo"],
        access: "full",
      });
    } finally {
      await client.close();
    }
    const shown = await listAuthorizations(t.deps, (await t.recordOf(key)).id);
    assert.deepEqual(
      shown.authorizations.map((a) => a.tools),
      [["echo"]],
      "the admin listing shows the narrowing",
    );
    const used = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(used.json().credits_used, 3, "the echo call, on the key's account");

    // The key narrowed to the tool the authorization left out: the two lists share none.
    assert.equal(await t.store.updateKey((await t.recordOf(key)).id, { tools: ["heavy-text"] }), true);
    assert.deepEqual(await listed(token), FREE_TOOLS);
    assert.deepEqual(await listed(key), ["heavy-text", ...FREE_TOOLS].sort());
  });

  it("refuses an approval with every box unchecked, on the page, making no authorization", async () => {
    const key = await t.key("free");
    const client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    const { url } = await client.authorizationUrl(await client.register());
    const person = new Person(t.base);
    const { html } = await person.openConsent(url);
    const refused = await person.submit(html, key, "Approve", t.base, ["Echo", "Heavy Text Counter"]);
    assert.equal(refused.status, 400);
    const page = await refused.text();
    assert.match(page, /role="alert">Check at least one tool/);
    assert.doesNotMatch(page, / checked>/, "the boxes come back as the person left them");
    const id = (await t.recordOf(key)).id;
    assert.deepEqual(await t.store.listOAuthAuthorizations(id, t.clock.now().toISOString()), []);

    // The page again, a box checked: the sign-in goes on.
    const again = await person.submit(page.replace('value="echo"', 'value="echo" checked'), key, "Approve");
    assert.equal(again.status, 303);
  });

  it("refuses the tools of a key limited to others", async () => {
    const key = await t.key("free", null, { tools: ["heavy-text"] });
    const client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    const { url } = await client.authorizationUrl(await client.register());
    const person = new Person(t.base);
    const { html } = await person.openConsent(url);
    const refused = await person.submit(html, key, "Approve", t.base, ["Heavy Text Counter"]);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /may use none of the checked tools/);
  });
});
