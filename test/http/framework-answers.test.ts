/**
 * Answers the framework or Node writes before a route runs are problem documents with a
 * code and an `x-request-id`, and echo nothing the client sent. Raw bytes over a socket to an app
 * listening in-process, since `app.inject` never meets Node's parser.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { connect } from "node:net";
import { before, describe, it } from "node:test";
import { createTestApp, DOCS_URL, untilSuiteEnds } from "../helpers/app.ts";

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  text: string;
}

/** Sends `chunks` (with pauses of `pauseMs` between them) and reads the answer until the close. */
function raw(port: number, chunks: readonly string[], pauseMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => {
      received += data;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      const [head = "", ...rest] = received.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = rest.join("\r\n\r\n");
      try {
        resolve({ status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(text), text });
      } catch {
        reject(new Error(`not a JSON answer:\n${received}`));
      }
    });
    socket.on("connect", async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        if (!socket.destroyed) socket.write(chunk);
      }
    });
  });
}

function assertProblemAnswer(answer: RawAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers["content-type"] ?? "", /^application\/problem\+json/);
  assert.equal(answer.body.code, code, answer.text);
  assert.equal(answer.body.status, status);
  assert.equal(answer.body.type, `${DOCS_URL}/errors/${code}`);
  assert.match(answer.headers["x-request-id"] ?? "", /^req_/);
  assert.equal(answer.body.request_id, answer.headers["x-request-id"]);
}

describe("answers written before a route runs", () => {
  let port: number;
  let key: string;
  const suite = untilSuiteEnds();

  before(async () => {
    const t = await createTestApp({ appOptions: { requestTimeoutMs: 300 } }, suite);
    key = await t.key("builder");
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const address = t.app.server.address();
    assert.ok(typeof address === "object" && address !== null);
    port = address.port;
  });

  it("a path that is not valid percent-encoding: 400 malformed_request", async () => {
    const answer = await raw(port, [
      "GET /v1/tool/%ZZ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    ]);
    assertProblemAnswer(answer, 400, "malformed_request");
    assert.ok(!answer.text.includes("%ZZ"), answer.text);
  });

  it("a slug over 100 characters: 414 uri_too_long, without the URL", async () => {
    const slug = `secret${"x".repeat(120)}`;
    const answer = await raw(port, [
      `GET /v1/tool/${slug} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    ]);
    assertProblemAnswer(answer, 414, "uri_too_long");
    assert.ok(!answer.text.includes("secretxxx"), answer.text);
  });

  it("a malformed request line: 400 malformed_request", async () => {
    assertProblemAnswer(await raw(port, ["this is not http\r\n\r\n"]), 400, "malformed_request");
  });

  it("Content-Length together with Transfer-Encoding: 400 malformed_request", async () => {
    const answer = await raw(port, [
      "POST /v1/tool/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ]);
    assertProblemAnswer(answer, 400, "malformed_request");
  });

  it("a header block over 16 KiB: 431 request_header_fields_too_large", async () => {
    const answer = await raw(port, [
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(17_000)}\r\n\r\n`,
    ]);
    assertProblemAnswer(answer, 431, "request_header_fields_too_large");
  });

  it("an HTTP/1.1 request without Host: 400 malformed_request", async () => {
    const answer = await raw(port, ["GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n"]);
    assertProblemAnswer(answer, 400, "malformed_request");
  });

  it("headers that never finish: 408 request_timeout, and the connection is closed", async () => {
    const answer = await raw(port, ["GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"]);
    assertProblemAnswer(answer, 408, "request_timeout");
  });

  it("a request answered before its body arrived gets no second answer when the body times out", async () => {
    const answer = await raw(port, [
      "POST /v1/tool/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    ]);
    assertProblemAnswer(answer, 401, "invalid_api_key");
  });

  it("an Expect other than 100-continue: 417 expectation_failed, without the header's value", async () => {
    const answer = await raw(port, [
      `POST /v1/tool/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 13\r\nExpect: secret-expectation\r\n\r\n`,
    ]);
    assertProblemAnswer(answer, 417, "expectation_failed");
    assert.ok(!answer.text.includes("secret-expectation"), answer.text);
  });

  it("Expect: 100-continue still works: the body is asked for and the call answered", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v1/tool/echo",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "content-length": "13",
            expect: "100-continue",
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("continue", () => req.end('{"value": 21}'));
      req.on("error", reject);
    });
    assert.equal(status, 200, body);
    assert.equal(JSON.parse(body).outputs.doubled, 42);
  });

  it("CONNECT: 400 malformed_request, this is no proxy, and the connection is closed", async () => {
    for (const target of ["127.0.0.1:443", "/v1/tools/list"]) {
      const answer = await raw(port, [`CONNECT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`]);
      assertProblemAnswer(answer, 400, "malformed_request");
      assert.match(String(answer.body.detail), /CONNECT/);
    }
  });

  it("a declared body that never arrives: 408 request_timeout, and the connection is closed", async () => {
    const answer = await raw(port, [
      `POST /v1/tool/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
      '{"value": 1',
    ]);
    assertProblemAnswer(answer, 408, "request_timeout");
  });
});
