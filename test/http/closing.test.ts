/**
 * Draining: a request that reaches the router after the server began to close is refused with a
 * problem document (503 shutting_down, Retry-After, Connection: close), not Fastify's own body.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { createTestApp } from "../helpers/app.ts";

describe("closing", () => {
  it("answers a request that arrives while closing with 503 shutting_down", async (context) => {
    const t = await createTestApp({}, context);
    const base = new URL(await t.app.listen({ port: 0, host: "127.0.0.1" }));
    const socket = connect(Number(base.port), base.hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    let text = "";
    socket.on("data", (d) => {
      text += d;
    });
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // Half a request: the connection is busy, so closing waits for it.
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${base.host}\r\n`);
    await new Promise((resolve) => setImmediate(resolve));
    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write("\r\n");
    await closed;
    await closing;
    await t.close();
    const [head, body] = text.split("\r\n\r\n");
    assert.match(head ?? "", /^HTTP\/1\.1 503 /);
    assert.match(head ?? "", /content-type: application\/problem\+json/i);
    assert.match(head ?? "", /retry-after: 1/i);
    assert.match(head ?? "", /connection: close/i);
    assert.equal(JSON.parse(body ?? "").code, "shutting_down");
  });
});
