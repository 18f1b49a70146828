/**
 * The URL template of HTTP tools: the origin is fixed, and a value never leaves the one path
 * segment or query value it fills, whatever it holds (`../`, `?`, `#`, `@`, encoded forms, CRLF).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { expandUrl, parseUrlTemplate, type UrlTemplate } from "../../src/core/tools/url-template.ts";

function template(text: string): UrlTemplate {
  const parsed = parseUrlTemplate(text);
  assert.ok("template" in parsed, `${text}: ${"problem" in parsed ? parsed.problem : ""}`);
  return parsed.template;
}

function expand(text: string, input: Record<string, unknown>, asQuery: string[] = []): string {
  const result = expandUrl(template(text), input, new Set(asQuery));
  assert.ok("url" in result, `expected a URL, got a refusal of ${"field" in result ? result.field : ""}`);
  return result.url;
}

const HOSTILE = [
  "../",
  "../../admin",
  "..%2F..%2Fadmin",
  "%2e%2e",
  "%2E%2E%2F",
  ".%2e",
  "a/b",
  "a\\b",
  "?admin=true",
  "#fragment",
  "@evil.example",
  "user:pass@evil.example",
  "//evil.example/x",
  "x\r\nHost: evil.example",
  "%0d%0aX-Injected: 1",
  "a&b=c",
  "a=b",
  "100%",
  "+plus+",
  " space ",
  "ünïcödé/✓",
  "\u0000nul",
  "\ud800lone",
];

describe("URL templates", () => {
  it("reads the origin, and the fields of the path and the query", () => {
    const parsed = template(
      "https://api.example.com:8443/v1/users/{id}/posts/{post}.json?lang={lang}&fixed=1",
    );
    assert.equal(parsed.origin, "https://api.example.com:8443");
    assert.deepEqual(parsed.pathFields, ["id", "post"]);
    assert.deepEqual(parsed.queryFields, ["lang"]);
    assert.equal(template("http://127.0.0.1:9").origin, "http://127.0.0.1:9");
  });

  it("refuses a template whose origin could come from input, or that is not a plain http(s) URL", () => {
    for (const [text, problem] of [
      ["https://{host}/x", /fixed host/],
      ["https://api.{domain}.com/x", /fixed host/],
      ["ftp://example.com/x", /http:\/\/ or https:\/\//],
      ["example.com/x", /http:\/\/ or https:\/\//],
      ["https://example.com/x#frag", /no #fragment/],
      ["https://user:pw@example.com/x", /credentials/],
      ["https://evil.example\\@api.good.example/x", /origin URL parsers read differently/],
      ["https://evil.example\\api.good.example/x", /origin URL parsers read differently/],
      ["https://api.good.example%2F@evil.example/x", /origin URL parsers read differently/],
      ["https://example.com/a/{b", /without its|not a field/],
      ["https://example.com/a/b}", /without its \{/],
      ["https://example.com/{a}{b}", /right after another field/],
      ["https://example.com/{a b}", /not a field name/],
      ["https://example.com/a/../b", /percent-encoded, without \. or \.\. segments/],
      ["https://example.com/a/%2e%2e/b", /percent-encoded, without \. or \.\. segments/],
      ["https://example.com/a b", /percent-encoded/],
    ] as const) {
      const parsed = parseUrlTemplate(text);
      assert.ok("problem" in parsed, `${text} should be refused`);
      assert.match(parsed.problem, problem, text);
    }
  });

  it("percent-encodes all but the unreserved characters, as RFC 6570 simple expansion does", () => {
    assert.equal(
      expand("https://x.test/a/{v}", { v: "A-z_0.9~!*'() /?#[]@$&+,;=%" }),
      "https://x.test/a/A-z_0.9~%21%2A%27%28%29%20%2F%3F%23%5B%5D%40%24%26%2B%2C%3B%3D%25",
    );
    assert.equal(expand("https://x.test/{n}/{b}", { n: 2.5, b: false }), "https://x.test/2.5/false");
    assert.equal(expand("https://x.test/{v}", { v: "é" }), "https://x.test/%C3%A9");
    // A lone surrogate has no UTF-8 form; it becomes U+FFFD rather than failing the call.
    assert.equal(expand("https://x.test/{v}", { v: "\ud800" }), "https://x.test/%EF%BF%BD");
  });

  it("keeps every hostile value inside the one path segment it fills", () => {
    for (const value of HOSTILE) {
      const url = new URL(expand("https://api.example.com/v1/items/{id}/detail", { id: value }));
      assert.equal(url.origin, "https://api.example.com", value);
      const segments = url.pathname.split("/");
      assert.deepEqual(segments.length, 5, `${JSON.stringify(value)} -> ${url.pathname}`);
      assert.equal(segments[4], "detail");
      assert.equal(decodeURIComponent(segments[3] ?? ""), value.toWellFormed());
      assert.equal(url.search, "");
      assert.equal(url.hash, "");
    }
  });

  it("keeps every hostile value inside the one query value it fills", () => {
    for (const value of HOSTILE) {
      const url = new URL(expand("https://api.example.com/search?q={q}&page=1", { q: value }));
      assert.equal(url.origin, "https://api.example.com");
      assert.equal(url.pathname, "/search");
      assert.deepEqual([...url.searchParams.keys()], ["q", "page"], value);
      assert.equal(url.searchParams.get("q"), value.toWellFormed());
      assert.equal(url.hash, "");
    }
  });

  it("keeps any string inside its segment and its query value (property)", () => {
    // Strings of delimiters, dots, escapes and any other character, mixed.
    const hostile = fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          "/",
          ".",
          "..",
          "%",
          "%2e",
          "%2F",
          "?",
          "#",
          "@",
          "&",
          "=",
          "+",
          "\\",
          "\r\n",
          "\ud800",
        ),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      ),
      maxLength: 30,
    });
    fc.assert(
      fc.property(hostile, hostile, (id, q) => {
        const url = new URL(expand("https://api.example.com/items/{id}/x?q={q}", { id: `a${id}`, q }));
        assert.equal(url.origin, "https://api.example.com");
        const segments = url.pathname.split("/");
        assert.equal(segments.length, 4);
        assert.equal(decodeURIComponent(segments[2] ?? ""), `a${id}`.toWellFormed());
        assert.deepEqual([...url.searchParams.keys()], ["q"]);
        assert.equal(url.searchParams.get("q"), q.toWellFormed());
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a value that would make a path segment . or .., naming the field", () => {
    for (const value of [".", ".."]) {
      assert.deepEqual(expandUrl(template("https://x.test/files/{name}"), { name: value }, new Set()), {
        field: "name",
      });
    }
    // Next to literal text a dot segment can still form; it is refused as well.
    assert.deepEqual(expandUrl(template("https://x.test/files/.{ext}"), { ext: "." }, new Set()), {
      field: "ext",
    });
    assert.equal(expand("https://x.test/files/{name}", { name: "..." }), "https://x.test/files/...");
    assert.equal(expand("https://x.test/files/{name}.json", { name: "." }), "https://x.test/files/..json");
    // In a query value, dots are only text.
    assert.equal(expand("https://x.test/f?name={name}", { name: ".." }), "https://x.test/f?name=..");
  });

  it("refuses an empty value that would make a whole path segment (`//`), naming the field", () => {
    for (const text of ["https://x.test/files/{name}/raw", "https://x.test/files/{name}"])
      assert.deepEqual(expandUrl(template(text), { name: "" }, new Set()), { field: "name" });
    assert.equal(expand("https://x.test/files/v{name}", { name: "" }), "https://x.test/files/v");
    assert.equal(expand("https://x.test/f?name={name}", { name: "" }), "https://x.test/f?name=");
  });

  it("appends the members it is given as query parameters, arrays repeated, objects as JSON", () => {
    const url = expand(
      "https://x.test/items/{id}?fixed=1",
      { id: "7", tag: ["a b", "c&d"], limit: 10, filter: { min: 1 }, missing: undefined },
      ["tag", "limit", "filter", "missing"],
    );
    assert.equal(
      url,
      "https://x.test/items/7?fixed=1&tag=a%20b&tag=c%26d&limit=10&filter=%7B%22min%22%3A1%7D",
    );
    const parsed = new URL(url);
    assert.deepEqual(parsed.searchParams.getAll("tag"), ["a b", "c&d"]);
    assert.equal(parsed.searchParams.get("filter"), '{"min":1}');
    assert.equal(
      expand("https://x.test/items", { "we ird": "v" }, ["we ird"]),
      "https://x.test/items?we%20ird=v",
    );
  });
});
