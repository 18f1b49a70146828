/**
 * Property tests (fast-check): whatever the payload, the tool either answers with outputs that
 * match the published output schema or, for a blank payload only, throws UnprocessableInputError;
 * Body Size is always the UTF-8 length of the body.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { describe, test } from "node:test";
import fc from "fast-check";
import { NOW, outputErrors, row, run } from "../../../test/helpers/tools/webhook-payload-inspector.ts";
import { UnprocessableInputError } from "../tool.ts";
import { PROVIDERS } from "./providers/providers.ts";

const knownHeaders = [...new Set(PROVIDERS.flatMap((p) => p.signals.map((s) => s[0])))];

const headerName = fc.oneof(
  fc.constantFrom(...knownHeaders, "Content-Type", "Host", "User-Agent", "X-Custom-Signature", "X-Foo-Event"),
  fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/),
);
const headerValue = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/x-www-form-urlencoded",
    "text/plain",
    "1700000000",
    "2023-11-14T22:13:20Z",
    "t=1,v1=ab",
    "sha256=00",
  ),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, " ")),
);
const bodyText = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
  fc.constantFrom(
    '{"id":123456789012345678901,"created_at":1700000000123}',
    "a=1&payload=%7B%22ts%22%3A1700000000%7D",
    "<x/>",
    '{"a":',
    "[[[[",
  ),
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }))
    .map((d) => new URLSearchParams(d).toString()),
  fc.string({ unit: "binary", maxLength: 200 }),
);
const eol = fc.constantFrom("\r\n", "\n");

/** A request with at least one header line, so the empty line always separates head and body. */
const request = fc.record({
  requestLine: fc.option(
    fc.constantFrom("POST /hooks HTTP/1.1", "POST https://example.com/x?y=1 HTTP/2", "PUT / HTTP/1.0"),
  ),
  headers: fc.array(fc.tuple(headerName, headerValue), { minLength: 1, maxLength: 8 }),
  body: bodyText,
  eol,
});

const build = (r: {
  requestLine: string | null;
  headers: Array<[string, string]>;
  body: string;
  eol: string;
}) =>
  [
    ...(r.requestLine === null ? [] : [r.requestLine]),
    ...r.headers.map(([name, value]) => `${name}: ${value}`),
    "",
    r.body,
  ].join(r.eol);

function inspectOrBlank(payload: string, secret?: string): void {
  try {
    const out = run(payload, secret, NOW);
    assert.equal(outputErrors(out), null);
    assert.equal(out.overview.length, 12);
  } catch (error) {
    assert.ok(error instanceof UnprocessableInputError, `unexpected ${String(error)}`);
    assert.equal(payload.trim(), "", "only a blank payload is unprocessable");
  }
}

describe("properties", () => {
  test("arbitrary text: outputs match the schema; only blank input is refused", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 400 }),
        fc.option(fc.string({ maxLength: 20 })),
        (payload, secret) => inspectOrBlank(payload, secret ?? undefined),
      ),
      { numRuns: 400 },
    );
  });

  test("request-shaped input: outputs match the schema, with and without a secret", () => {
    fc.assert(
      fc.property(
        request,
        fc.option(fc.constantFrom("s3cret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")),
        (r, secret) => inspectOrBlank(build(r), secret ?? undefined),
      ),
      { numRuns: 400 },
    );
  });

  test("Body Size is always the UTF-8 length of the body, and Characters its code points", () => {
    fc.assert(
      fc.property(request, (r) => {
        const out = run(build(r));
        assert.equal(row(out, "Body Size"), `${Buffer.byteLength(r.body, "utf8")} B`);
        assert.equal(out.values.bodyBytes, Buffer.byteLength(r.body, "utf8"));
        assert.equal(out.values.characters, [...r.body].length);
        assert.equal(out.values.headerCount, r.headers.length);
      }),
      { numRuns: 300 },
    );
  });
});
