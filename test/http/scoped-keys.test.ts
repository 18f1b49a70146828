/**
 * Scoped keys over HTTP and the admin API: a key limited to some tools sees only those in the
 * catalog, search and schema reads, and any other slug is the 404 an unknown slug gets, word for
 * word, taking no slot and charging nothing; a read-only key makes every free read but no tool
 * call (403 `key_read_only`, a slot taken, nothing charged). The admin API sets both, refuses an
 * unknown slug naming `tools`, shows them in the key's view and audits every change.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { adminClient } from "../admin/helpers.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";

/** What is left of the key's window, from the RateLimit header of its last answer. */
function slotsLeft(headers: Record<string, unknown>): number {
  const match = /;r=(\d+);/.exec(String(headers.ratelimit));
  assert.ok(match?.[1], `a RateLimit header: ${String(headers.ratelimit)}`);
  return Number(match[1]);
}

/** A problem document without what differs from one request to the next. */
function sameShape(body: Record<string, unknown>): Record<string, unknown> {
  return { ...body, request_id: undefined };
}

describe("scoped keys over HTTP", () => {
  const suite = untilSuiteEnds();
  let t: TestApp;
  let echoOnly: string;
  let readOnly: string;
  let everything: string;

  const get = (url: string, key: string) => t.app.inject({ method: "GET", url, headers: bearer(key) });
  const post = (slug: string, key: string, payload: unknown) =>
    t.app.inject({
      method: "POST",
      url: `/v1/tool/${slug}`,
      headers: json(bearer(key)),
      payload: JSON.stringify(payload),
    });
  const used = async (key: string) => (await get("/v1/me/credits", key)).json().credits_used as number;

  before(async () => {
    t = await createTestApp({}, suite);
    echoOnly = await t.key("free", null, { tools: ["echo"] });
    readOnly = await t.key("free", null, { access: "read" });
    everything = await t.key("free");
  });

  it("lists and finds only the key's tools", async () => {
    const slugs = async (url: string, key: string) =>
      ((await get(url, key)).json().tools as { slug: string }[]).map((row) => row.slug);
    assert.deepEqual(await slugs("/v1/tools/list", echoOnly), ["echo"]);
    assert.deepEqual(await slugs("/v1/tools/list", everything), ["echo", "heavy-text"]);
    assert.deepEqual(await slugs("/v1/tools/search?q=counter", everything), ["heavy-text"]);
    assert.deepEqual(await slugs("/v1/tools/search?q=counter", echoOnly), []);
    assert.deepEqual(await slugs("/v1/tools/search?q=echo", echoOnly), ["echo"]);
  });

  it("answers another tool's schema and call exactly as an unknown slug's, with no slot and no charge", async () => {
    const probe = await get("/v1/me/credits", echoOnly);
    const left = slotsLeft(probe.headers);
    for (const url of ["/v1/tool/heavy-text", "/v1/tool/no-such-tool"]) {
      const res = await get(url, echoOnly);
      assert.equal(res.headers.ratelimit, undefined, "no slot, so no RateLimit header");
    }
    const hidden = assertProblem(await get("/v1/tool/heavy-text", echoOnly), 404, "tool_not_found");
    const unknown = assertProblem(await get("/v1/tool/no-such-tool", echoOnly), 404, "tool_not_found");
    assert.deepEqual(sameShape(hidden), sameShape(unknown));
    const hiddenCall = assertProblem(
      await post("heavy-text", echoOnly, { text: "abc" }),
      404,
      "tool_not_found",
    );
    const unknownCall = assertProblem(
      await post("no-such-tool", echoOnly, { text: "abc" }),
      404,
      "tool_not_found",
    );
    assert.deepEqual(sameShape(hiddenCall), sameShape(unknownCall));
    assert.deepEqual(sameShape(hiddenCall), sameShape(hidden));
    const after = await get("/v1/me/credits", echoOnly);
    assert.equal(slotsLeft(after.headers), left - 1, "only the two reads of credits took slots");
    assert.equal(after.json().credits_used, 0);
  });

  it("reads and calls the key's own tool as any key does", async () => {
    const schema = await get("/v1/tool/echo", echoOnly);
    assert.equal(schema.statusCode, 200);
    assert.equal(schema.json().slug, "echo");
    const res = await post("echo", echoOnly, { value: 2 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().credits_used, 3);
    assert.equal(await used(echoOnly), 3);
  });

  it("refuses every tool call of a read-only key with 403 key_read_only: a slot taken, nothing charged", async () => {
    for (const url of ["/v1/tools/list", "/v1/tools/search?q=echo", "/v1/tool/echo", "/v1/me/usage"])
      assert.equal((await get(url, readOnly)).statusCode, 200, url);
    const before = await get("/v1/me/credits", readOnly);
    const left = slotsLeft(before.headers);
    const refused = await post("echo", readOnly, { value: 2 });
    const body = assertProblem(refused, 403, "key_read_only");
    assert.match(String(body.detail), /read-only/);
    assert.equal(slotsLeft(refused.headers), left - 1, "the refusal took a slot");
    const after = await get("/v1/me/credits", readOnly);
    assert.equal(after.json().credits_used, 0);
    assert.equal((await get("/v1/me/usage", readOnly)).json().calls, 0, "no usage row");
    // A tool it could not see is still the 404, before its slot.
    assertProblem(await post("no-such-tool", readOnly, { value: 2 }), 404, "tool_not_found");
  });

  it("shows the key and its scope in /v1/me/credits", async () => {
    const scoped = (await get("/v1/me/credits", echoOnly)).json().key;
    assert.deepEqual(scoped, { id: (await t.recordOf(echoOnly)).id, tools: ["echo"], access: "full" });
    const read = (await get("/v1/me/credits", readOnly)).json().key;
    assert.deepEqual(read, { id: (await t.recordOf(readOnly)).id, tools: null, access: "read" });
  });
});

describe("scoped keys in the admin API", () => {
  it("creates a key with tools and access, shows them, and refuses an unknown slug naming tools", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const created = await admin.post("/keys", { plan: "free", tools: ["echo"], access: "read" });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual([created.json().tools, created.json().access], [["echo"], "read"]);
    assert.deepEqual((await admin.get(`/keys/${created.json().id}`)).json().tools, ["echo"]);
    const audit = (await admin.get(`/audit?target=${created.json().id}`)).json().entries;
    assert.deepEqual(
      audit.map((entry: { action: string; details: Record<string, unknown> }) => [
        entry.action,
        entry.details.tools,
        entry.details.access,
      ]),
      [["keys.create", ["echo"], "read"]],
    );

    const unknown = assertProblem(
      await admin.post("/keys", { plan: "free", tools: ["echo", "nope"] }),
      400,
      "validation_error",
    );
    assert.deepEqual(Object.keys(unknown.fields as object), ["tools"]);
    assert.match(String((unknown.fields as Record<string, string>).tools), /nope/);
    for (const bad of [{ tools: [] }, { tools: "echo" }, { tools: ["echo", "echo"] }, { access: "write" }]) {
      const body = assertProblem(
        await admin.post("/keys", { plan: "free", ...bad }),
        400,
        "validation_error",
      );
      assert.deepEqual(Object.keys(body.fields as object), Object.keys(bad), JSON.stringify(bad));
    }
    const before = (await admin.get("/keys")).json().keys.length;
    assert.equal(before, 1, "no refused key was made");
  });

  it("narrows, widens and makes read-only a key with PATCH, at once, each change audited", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const created = (await admin.post("/keys", { plan: "free" })).json();
    const call = () =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/heavy-text",
        headers: json(bearer(created.key)),
        payload: JSON.stringify({ text: "abc" }),
      });
    assert.equal((await call()).statusCode, 200);

    const narrowed = await admin.patch(`/keys/${created.id}`, { tools: ["echo"] });
    assert.equal(narrowed.statusCode, 200, narrowed.body);
    assert.deepEqual(narrowed.json().tools, ["echo"]);
    assertProblem(await call(), 404, "tool_not_found");

    assertProblem(await admin.patch(`/keys/${created.id}`, { tools: ["nope"] }), 400, "validation_error");

    const readOnly = await admin.patch(`/keys/${created.id}`, { tools: null, access: "read" });
    assert.deepEqual([readOnly.json().tools, readOnly.json().access], [null, "read"]);
    assertProblem(await call(), 403, "key_read_only");

    await admin.patch(`/keys/${created.id}`, { access: "full" });
    assert.equal((await call()).statusCode, 200);

    const audit = (await admin.get(`/audit?target=${created.id}`)).json();
    const changes = (audit.entries as { action: string; details: Record<string, unknown> }[])
      .filter((entry) => entry.action === "keys.update")
      .map((entry) => entry.details);
    assert.deepEqual(changes.reverse(), [
      { tools: ["echo"] },
      { tools: null, access: "read" },
      { access: "full" },
    ]);
  });
});
