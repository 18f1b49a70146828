import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseRequestLine, splitRequest } from "./parse.ts";

const names = (payload: string) => splitRequest(payload).headers.map((h) => [h.name, h.value]);

describe("splitRequest", () => {
  test("request line, headers and body, CRLF or LF alike", () => {
    for (const eol of ["\r\n", "\n"]) {
      const payload = [
        "POST /hook?x=1 HTTP/1.1",
        "Host: example.com",
        "Content-Type:  application/json  ",
        "",
        '{"a":1}',
        "",
      ].join(eol);
      const split = splitRequest(payload);
      assert.equal(split.requestLine?.text, "POST /hook?x=1 HTTP/1.1");
      assert.equal(split.requestLine?.target, "/hook?x=1");
      assert.deepEqual(names(payload), [
        ["Host", "example.com"],
        ["Content-Type", "application/json"],
      ]);
      assert.equal(split.body, `{"a":1}${eol}`, "the body is everything after the empty line, untrimmed");
    }
  });

  test("header names keep their case; duplicates stay separate and in order", () => {
    assert.deepEqual(names("x-github-EVENT: push\nSet-Thing: a\nSet-Thing: b\n\n"), [
      ["x-github-EVENT", "push"],
      ["Set-Thing", "a"],
      ["Set-Thing", "b"],
    ]);
  });

  test("a line starting with a space or tab continues the previous header", () => {
    assert.deepEqual(names("X-Long: part one\r\n   part two\r\n\tpart three\r\nX-Next: n\r\n\r\nbody"), [
      ["X-Long", "part one part two part three"],
      ["X-Next", "n"],
    ]);
  });

  test("the first empty (or blank) line ends the head; the body is kept as given", () => {
    const split = splitRequest("X-A: 1\n  \n  indented body\n\nmore");
    assert.deepEqual(split.headers, [{ name: "X-A", value: "1" }]);
    assert.equal(split.body, "  indented body\n\nmore");
  });

  test("input that opens with { or [ (after a BOM and whitespace) is all body", () => {
    for (const payload of ['{"a":1}', "\ufeff\n  [1,2]", '  \r\n{"x":"y: z"}']) {
      const split = splitRequest(payload);
      assert.equal(split.requestLine, null);
      assert.equal(split.headers.length, 0);
      assert.equal(split.body, payload);
    }
  });

  test("without an empty line, the first line opening { or [ starts the body", () => {
    const split = splitRequest('POST / HTTP/1.1\nContent-Type: application/json\n{"a":\n1}');
    assert.equal(split.headers.length, 1);
    assert.equal(split.body, '{"a":\n1}');
  });

  test("without an empty line or a JSON line there is no body", () => {
    const split = splitRequest("POST /hooks HTTP/2\nX-Event: ping");
    assert.equal(split.requestLine?.version, "HTTP/2");
    assert.equal(split.headers.length, 1);
    assert.equal(split.body, "");
  });

  test("a request line alone", () => {
    const split = splitRequest("POST /webhook HTTP/1.1\r\n");
    assert.equal(split.requestLine?.method, "POST");
    assert.equal(split.headers.length, 0);
    assert.equal(split.body, "");
  });

  test("a first line that is neither a request line nor a header makes the whole input the body", () => {
    for (const payload of ["token=abc&team_id=T1", "<xml>hi</xml>\n<more/>", "hello world"]) {
      const split = splitRequest(payload);
      assert.equal(split.body, payload);
      assert.equal(split.headers.length, 0);
    }
  });

  test("a BOM before the head is skipped", () => {
    const split = splitRequest("\ufeffPOST / HTTP/1.1\nX-A: b\n\nbody");
    assert.equal(split.requestLine?.method, "POST");
    assert.equal(split.body, "body");
  });

  test("lines that are not headers are ignored with a note", () => {
    const split = splitRequest("X-A: 1\nnot a header\n  \tx\n\nbody".replace("  \tx\n", ""));
    assert.deepEqual(split.headers, [{ name: "X-A", value: "1" }]);
    assert.equal(split.notes.length, 1);
    assert.match(split.notes[0] ?? "", /Line 2/);
  });

  test("an indented line with no header before it is ignored with a note", () => {
    const split = splitRequest("POST / HTTP/1.1\n  orphan\nX-A: 1\n\n");
    assert.deepEqual(split.headers, [{ name: "X-A", value: "1" }]);
    assert.match(split.notes[0] ?? "", /indented/);
  });
});

describe("parseRequestLine", () => {
  test("METHOD target HTTP/x[.y]", () => {
    assert.deepEqual(parseRequestLine("POST https://a.example/x?y HTTP/1.1"), {
      text: "POST https://a.example/x?y HTTP/1.1",
      method: "POST",
      target: "https://a.example/x?y",
      version: "HTTP/1.1",
    });
    for (const line of [
      "POST /x",
      "POST /x HTTP/1.10",
      "P0ST /x HTTP/1.1",
      "POST  /x HTTP/1.1",
      "/x HTTP/1.1",
      "POST /x http/1.1",
    ]) {
      assert.equal(parseRequestLine(line), null, line);
    }
  });
});
