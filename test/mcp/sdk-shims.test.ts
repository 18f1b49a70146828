/**
 * The two corrections toolrun makes to the MCP SDK's answers (src/mcp/sdk-answers.ts): what the
 * SDK itself does today that each corrects, so that the day a test of the first group fails the
 * SDK has been fixed and the shim can go; and that the corrections touch JSON-RPC errors only,
 * leaving a success answer as the SDK's own bytes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { correctedAnswer } from "../../src/mcp/sdk-answers.ts";

/** The SDK's own answer to one message, with no toolrun code in between. */
async function sdkAnswer(message: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const server = new Server({ name: "bare", version: "1.0.0" }, { capabilities: {} });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(message),
      }),
    );
  } finally {
    await transport.close();
    await server.close();
  }
}

const badInitialize = {
  jsonrpc: "2.0",
  id: 7,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: "nope", clientInfo: { name: "t", version: "1" } },
};

describe("what the SDK still does that toolrun corrects (a failure here: delete the shim)", () => {
  it("answers params that do not fit their method -32603 with zod's issues as the message (invalid-params.ts)", async () => {
    const answer = (await (await sdkAnswer(badInitialize)).json()) as {
      error: { code: number; message: string };
    };
    assert.equal(answer.error.code, -32603);
    assert.match(answer.error.message, /^\s*\[/);
  });

  it("quotes an MCP-Protocol-Version header it does not know in its error (echoes.ts)", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const response = await sdkAnswer(ping, { "mcp-protocol-version": "echo-me-1999" });
    assert.match(await response.text(), /echo-me-1999/);
  });
});

describe("the corrections of the SDK's answers", () => {
  it("turns a params error into -32602 naming the member", () => {
    const sdk = Buffer.from(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32603,
          message: JSON.stringify([{ path: ["params", "capabilities"], message: "Expected object" }]),
        },
      }),
    );
    assert.deepEqual(JSON.parse(correctedAnswer(sdk, []).toString()), {
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "Invalid params: capabilities: Expected object" },
    });
  });

  it("keeps a header value it was sent out of an error, in every message of a batch", () => {
    const error = { code: -32600, message: "Bad revision echo-me-1999", data: { sent: "echo-me-1999" } };
    const sdk = Buffer.from(
      JSON.stringify([
        { result: {}, jsonrpc: "2.0", id: 1 },
        { jsonrpc: "2.0", id: 2, error },
      ]),
    );
    const text = correctedAnswer(sdk, ["echo-me-1999"]).toString();
    assert.doesNotMatch(text, /echo-me-1999/);
    assert.deepEqual(JSON.parse(text)[0], { result: {}, jsonrpc: "2.0", id: 1 });
  });

  it("hands back an error it has nothing to correct as the same bytes", () => {
    const sdk = Buffer.from('{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}');
    assert.equal(correctedAnswer(sdk, ["2025-11-25", "unrelated"]), sdk);
  });

  it("never parses a success answer, whatever it holds: the same Buffer goes out", (t) => {
    const parse = t.mock.method(JSON, "parse");
    // Text that would be corrected in an error, inside a success, must stay as it is.
    const quoted = JSON.stringify([{ path: ["params"], message: "echo-me-1999" }]);
    for (const sdk of [
      Buffer.from(
        JSON.stringify({ result: { content: [{ type: "text", text: quoted }] }, jsonrpc: "2.0", id: 1 }),
      ),
      Buffer.from(
        JSON.stringify({
          jsonrpc: "2.0",
          id: "call-1",
          result: { error: { code: -32603, message: quoted } },
        }),
      ),
      Buffer.from(`{"result":{"text":"${"x".repeat(1 << 20)}"},"jsonrpc":"2.0","id":3}`),
    ]) {
      assert.equal(correctedAnswer(sdk, ["echo-me-1999"]), sdk);
    }
    assert.equal(parse.mock.callCount(), 0);
  });
});
