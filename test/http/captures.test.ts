/**
 * Captures over HTTP: creating one (and the live limit), what its address keeps of any request
 * (raw, any method and content type, 1 MiB, the last 100, 60 a minute), the reads of the owner's
 * account only, expiry and the purge.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { createMemoryRateLimiter } from "../../src/adapters/memory/rate-limiter.ts";
import { jobs } from "../../src/housekeeping.ts";
import { bearer, createTestApp, PUBLIC_URL, type TestApp } from "../helpers/app.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { assertProblem } from "../helpers/problem.ts";
import { type StoreToTest, storesToTest } from "../helpers/stores.ts";

const MIB = 1024 * 1024;

async function appOn(
  store: StoreToTest,
  t: TestContext,
  options: { captureTtlS?: number } = {},
): Promise<TestApp> {
  return createTestApp(
    {
      ...options,
      store: await store.make(),
      at: "2026-11-15T12:00:10.000Z",
      limiter: createMemoryRateLimiter(),
    },
    t,
  );
}

async function capture(
  t: TestApp,
  key: string,
): Promise<{ id: string; url: string; expires_at: string; path: string }> {
  const created = await t.app.inject({ method: "POST", url: "/v1/captures", headers: bearer(key) });
  assert.equal(created.statusCode, 201, created.body);
  const body = created.json();
  return { ...body, path: new URL(body.url).pathname };
}

async function requests(t: TestApp, key: string, id: string, query = "") {
  return t.app.inject({ method: "GET", url: `/v1/captures/${id}/requests${query}`, headers: bearer(key) });
}

for (const each of storesToTest({ postgres: "system" }))
  describe(`captures over HTTP on ${each.name}`, () => {
    const app = (t: TestContext, options: { captureTtlS?: number } = {}) => appOn(each, t, options);
    it("creates a capture whose URL is under the public URL with an unguessable token, free, taking a slot", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const created = await test.app.inject({ method: "POST", url: "/v1/captures", headers: bearer(key) });
      assert.equal(created.statusCode, 201);
      assert.match(created.headers.ratelimit as string, /r=59;/);
      const body = created.json();
      assert.deepEqual(Object.keys(body).sort(), ["expires_at", "id", "url"]);
      assert.match(body.id, /^cap_[0-9A-Za-z]{16}$/);
      assert.match(body.url, new RegExp(`^${PUBLIC_URL}/hooks/[0-9A-Za-z]{32}$`));
      assert.equal(body.expires_at, "2026-11-16T12:00:10.000Z");
      const credits = await test.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
      assert.equal(credits.json().credits_used, 0);
      const second = await capture(test, key);
      assert.notEqual(second.url, body.url);
    });

    it("needs a key", async (t) => {
      const test = await app(t);
      assertProblem(await test.app.inject({ method: "POST", url: "/v1/captures" }), 401, "invalid_api_key");
      assertProblem(await test.app.inject({ method: "GET", url: "/v1/captures" }), 401, "invalid_api_key");
    });

    it("refuses a sixth live capture with 409 capture_limit_reached, and counts again after a delete or an expiry", async (t) => {
      const test = await app(t, { captureTtlS: 3600 });
      const key = await test.key("builder");
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await capture(test, key));
      const refused = await test.app.inject({ method: "POST", url: "/v1/captures", headers: bearer(key) });
      assertProblem(refused, 409, "capture_limit_reached");
      // Another account is not held back.
      await capture(test, await test.key());
      const deleted = await test.app.inject({
        method: "DELETE",
        url: `/v1/captures/${made[0]?.id}`,
        headers: bearer(key),
      });
      assert.deepEqual(deleted.json(), { id: made[0]?.id, deleted: true });
      await capture(test, key);
      assertProblem(
        await test.app.inject({ method: "POST", url: "/v1/captures", headers: bearer(key) }),
        409,
        "capture_limit_reached",
      );
      test.clock.advance(3600 * 1000);
      await capture(test, key);
    });

    it("keeps a request raw: request line, headers in the order received, body bytes as sent; answers {received: true}", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      const body = "payload=%7B%22a%22%3A1%7D&x=%C3%A9";
      const sent = await test.app.inject({
        method: "POST",
        url: `${made.path}?attempt=1`,
        headers: {
          "X-Zeta": "last-alphabetically",
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Alpha": "first-alphabetically",
        },
        payload: body,
      });
      assert.equal(sent.statusCode, 200);
      assert.deepEqual(sent.json(), { received: true });
      const read = await requests(test, key, made.id);
      assert.equal(read.statusCode, 200);
      const page = read.json();
      assert.equal(page.capture_id, made.id);
      assert.equal(page.next_cursor, null);
      assert.equal(page.requests.length, 1);
      const [request] = page.requests;
      assert.match(request.id, /^creq_/);
      assert.equal(request.method, "POST");
      assert.equal(request.size, Buffer.byteLength(body));
      assert.equal(request.received_at, "2026-11-15T12:00:10.000Z");
      const lines = request.raw.split("\r\n");
      assert.equal(lines[0], `POST ${made.path}?attempt=1 HTTP/1.1`);
      // The in-process client lowercases names; test/system/captures shows them kept as sent.
      const names = lines
        .slice(1, lines.indexOf(""))
        .map((line: string) => line.split(":")[0]?.toLowerCase());
      assert.ok(names.indexOf("x-zeta") < names.indexOf("content-type"));
      assert.ok(names.indexOf("content-type") < names.indexOf("x-alpha"));
      assert.ok(request.raw.endsWith(`\r\n\r\n${body}`));
    });

    it("keeps bodies of every content type without parsing them: JSON (even invalid), text, binary, none", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      const bodies: [string, string | Buffer][] = [
        ["application/json", '{"not": "closed"'],
        ["text/plain", "just text"],
        ["application/octet-stream", Buffer.from([0, 1, 2, 250, 251])],
        ["application/xml", "<a>1</a>"],
      ];
      for (const [type, payload] of bodies) {
        const sent = await test.app.inject({
          method: "POST",
          url: made.path,
          headers: { "content-type": type },
          payload,
        });
        assert.equal(sent.statusCode, 200, `${type}: ${sent.body}`);
      }
      assert.equal((await test.app.inject({ method: "POST", url: made.path })).statusCode, 200);
      const page = (await requests(test, key, made.id)).json();
      assert.deepEqual(
        page.requests.map((r: { size: number }) => r.size),
        [0, 8, 5, 9, 16],
      );
      assert.ok(page.requests[4].raw.endsWith('\r\n\r\n{"not": "closed"'));
    });

    it("keeps methods other than POST", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
        const sent = await test.app.inject({
          method,
          url: made.path,
          ...(method === "GET"
            ? {}
            : { headers: { "content-type": "application/json" }, payload: `{"m":"${method}"}` }),
        });
        assert.equal(sent.statusCode, 200, `${method}: ${sent.body}`);
      }
      const page = (await requests(test, key, made.id)).json();
      assert.deepEqual(
        page.requests.map((r: { method: string }) => r.method),
        ["DELETE", "PATCH", "PUT", "GET"],
      );
      assert.match(page.requests[0].raw, /^DELETE \/hooks\//);
      assert.ok(page.requests[1].raw.endsWith('{"m":"PATCH"}'));
    });

    it("keeps a body of exactly 1 MiB; a larger one is 413 and nothing is kept", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      const exact = await test.app.inject({
        method: "POST",
        url: made.path,
        headers: { "content-type": "text/plain" },
        payload: "a".repeat(MIB),
      });
      assert.equal(exact.statusCode, 200);
      const larger = await test.app.inject({
        method: "POST",
        url: made.path,
        headers: { "content-type": "application/json" },
        payload: `"${"b".repeat(MIB - 1)}"`,
      });
      const problem = assertProblem(larger, 413, "payload_too_large");
      assert.match(String(problem.detail), /1 MiB/);
      const page = (await requests(test, key, made.id)).json();
      assert.deepEqual(
        page.requests.map((r: { size: number }) => r.size),
        [MIB],
      );
    });

    it("keeps the last 100 requests: the 101st drops the oldest", async (t) => {
      const test = await app(t);
      const key = await test.key("builder");
      const made = await capture(test, key);
      for (let n = 1; n <= 101; n++) {
        // A new minute every 50 requests keeps within the capture's 60 a minute.
        if (n % 50 === 0) test.clock.advance(60_000);
        const sent = await test.app.inject({
          method: "POST",
          url: made.path,
          payload: `{"n":${n}}`,
          headers: { "content-type": "application/json" },
        });
        assert.equal(sent.statusCode, 200);
      }
      const first = (await requests(test, key, made.id, "?limit=100")).json();
      assert.equal(first.requests.length, 100);
      assert.equal(first.next_cursor, null);
      assert.ok(first.requests[0].raw.endsWith('{"n":101}'));
      assert.ok(first.requests[99].raw.endsWith('{"n":2}'));
      const listed = await test.app.inject({ method: "GET", url: "/v1/captures", headers: bearer(key) });
      assert.equal(listed.json().captures[0].request_count, 100);
    });

    it("pages with a cursor, newest first, and refuses a cursor it did not issue", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      for (let n = 1; n <= 5; n++)
        await test.app.inject({
          method: "POST",
          url: made.path,
          payload: `n=${n}`,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
      const first = (await requests(test, key, made.id, "?limit=2")).json();
      assert.equal(first.requests.length, 2);
      assert.ok(first.requests[0].raw.endsWith("n=5"));
      const second = (await requests(test, key, made.id, `?limit=2&cursor=${first.next_cursor}`)).json();
      assert.ok(second.requests[0].raw.endsWith("n=3"));
      const third = (await requests(test, key, made.id, `?limit=2&cursor=${second.next_cursor}`)).json();
      assert.equal(third.requests.length, 1);
      assert.equal(third.next_cursor, null);
      const forged = await requests(test, key, made.id, "?cursor=bm90LW91cnM");
      assert.deepEqual(assertProblem(forged, 400, "validation_error").fields, {
        cursor: "is not a valid cursor",
      });
      const bad = await requests(test, key, made.id, "?limit=0");
      assert.ok((assertProblem(bad, 400, "validation_error").fields as Record<string, string>).limit);
    });

    it("takes 60 requests a minute per capture; the 61st is 429 with Retry-After and is not kept", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      const other = await capture(test, key);
      for (let n = 1; n <= 60; n++)
        assert.equal(
          (
            await test.app.inject({
              method: "POST",
              url: made.path,
              payload: "x",
              headers: { "content-type": "text/plain" },
            })
          ).statusCode,
          200,
        );
      const refused = await test.app.inject({
        method: "POST",
        url: made.path,
        payload: "y",
        headers: { "content-type": "text/plain" },
      });
      const problem = assertProblem(refused, 429, "rate_limited");
      assert.equal(refused.headers["retry-after"], "50");
      assert.equal(problem.retry_after, 50);
      // Another capture of the same account has its own window.
      assert.equal((await test.app.inject({ method: "POST", url: other.path })).statusCode, 200);
      const listed = (
        await test.app.inject({ method: "GET", url: "/v1/captures", headers: bearer(key) })
      ).json();
      const counts = Object.fromEntries(
        listed.captures.map((c: { id: string; request_count: number }) => [c.id, c.request_count]),
      );
      assert.deepEqual(counts, { [made.id]: 60, [other.id]: 1 });
      test.clock.advance(50_000);
      assert.equal((await test.app.inject({ method: "POST", url: made.path })).statusCode, 200);
    });

    it("answers 404 for an unknown token, whatever its form", async (t) => {
      const test = await app(t);
      for (const path of ["/hooks/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/hooks/short", "/hooks/%E2%9C%93"])
        assertProblem(await test.app.inject({ method: "POST", url: path, payload: "{}" }), 404, "not_found");
    });

    it("lets only the owning account list, read or delete a capture: another's id is 404 capture_not_found", async (t) => {
      const test = await app(t);
      const owner = await test.key();
      const stranger = await test.key();
      const made = await capture(test, owner);
      await test.app.inject({
        method: "POST",
        url: made.path,
        payload: "secret=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      const strangerList = await test.app.inject({
        method: "GET",
        url: "/v1/captures",
        headers: bearer(stranger),
      });
      assert.deepEqual(strangerList.json(), { captures: [] });
      assertProblem(await requests(test, stranger, made.id), 404, "capture_not_found");
      assertProblem(
        await test.app.inject({
          method: "DELETE",
          url: `/v1/captures/${made.id}`,
          headers: bearer(stranger),
        }),
        404,
        "capture_not_found",
      );
      assertProblem(await requests(test, owner, "cap_unknown"), 404, "capture_not_found");
      const ownerList = await test.app.inject({ method: "GET", url: "/v1/captures", headers: bearer(owner) });
      assert.deepEqual(ownerList.json(), {
        captures: [
          {
            id: made.id,
            created_at: "2026-11-15T12:00:10.000Z",
            expires_at: made.expires_at,
            request_count: 1,
          },
        ],
      });
      assert.equal((await requests(test, owner, made.id)).json().requests.length, 1);
    });

    it("ends a deleted capture at once: its address is 404", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      await test.app.inject({ method: "DELETE", url: `/v1/captures/${made.id}`, headers: bearer(key) });
      assertProblem(
        await test.app.inject({ method: "POST", url: made.path, payload: "{}" }),
        404,
        "not_found",
      );
      assertProblem(await requests(test, key, made.id), 404, "capture_not_found");
      assertProblem(
        await test.app.inject({ method: "DELETE", url: `/v1/captures/${made.id}`, headers: bearer(key) }),
        404,
        "capture_not_found",
      );
    });

    it("expires after TOOLRUN_CAPTURE_TTL_S: 404 at the hook and on every read, then purged by housekeeping", async (t) => {
      const test = await app(t, { captureTtlS: 600 });
      const key = await test.key();
      const made = await capture(test, key);
      assert.equal(made.expires_at, "2026-11-15T12:10:10.000Z");
      await test.app.inject({
        method: "POST",
        url: made.path,
        payload: "{}",
        headers: { "content-type": "application/json" },
      });
      test.clock.advance(600 * 1000);
      assertProblem(
        await test.app.inject({ method: "POST", url: made.path, payload: "{}" }),
        404,
        "not_found",
      );
      assertProblem(await requests(test, key, made.id), 404, "capture_not_found");
      assertProblem(
        await test.app.inject({ method: "DELETE", url: `/v1/captures/${made.id}`, headers: bearer(key) }),
        404,
        "capture_not_found",
      );
      assert.deepEqual(
        (await test.app.inject({ method: "GET", url: "/v1/captures", headers: bearer(key) })).json(),
        {
          captures: [],
        },
      );
      const purge = jobs({ webhookRetentionS: 86_400, callAbandonS: 600, oauth: null }, test.deps, {
        warn() {},
      }).find((job) => job.name.includes("captures"));
      assert.ok(purge, "housekeeping has a purge of expired captures");
      await purge.run();
      assert.deepEqual(await test.store.listCapturedRequests(made.id, 10, null), []);
    });

    it("never writes a capture's token to the log", async (t) => {
      const log = collectLog();
      const test = await createTestApp({ ...log.options, limiter: createMemoryRateLimiter() }, t);
      const key = await test.key();
      const made = await capture(test, key);
      await test.app.inject({ method: "POST", url: `${made.path}?x=1`, payload: "{}" });
      await test.app.inject({ method: "GET", url: made.path });
      const token = made.path.slice("/hooks/".length);
      assert.ok(!JSON.stringify(log.lines).includes(token));
      const urls = log.requestLines().map((line) => (line.req as { url: string } | undefined)?.url);
      assert.ok(urls.includes("/hooks/[redacted]?…"));
      assert.ok(urls.includes("/hooks/[redacted]"));
    });

    it("refuses bad parameters with 400 naming them", async (t) => {
      const test = await app(t);
      const key = await test.key();
      const made = await capture(test, key);
      const bad = await requests(test, key, made.id, "?limit=abc&extra=1");
      const fields = assertProblem(bad, 400, "validation_error").fields as Record<string, string>;
      assert.ok(fields.limit);
      assert.ok(fields.extra);
      for (const id of ["%00", "cap_%00", "key_abc", "cap_a%2Fb"]) {
        const read = await requests(test, key, id);
        assert.ok((assertProblem(read, 400, "validation_error").fields as Record<string, string>).id, id);
        const deleted = await test.app.inject({
          method: "DELETE",
          url: `/v1/captures/${id}`,
          headers: bearer(key),
        });
        assert.ok((assertProblem(deleted, 400, "validation_error").fields as Record<string, string>).id, id);
      }
    });
  });
