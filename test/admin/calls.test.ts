/**
 * Who called, and the usage export, through the admin API: the calls listing with its filters and
 * cursor, the export as NDJSON CloudEvents whose pages join up to the whole, and every mistake
 * refused as a problem document naming its field.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { usageEventSchema } from "../../src/core/admin/calls.ts";
import { bearer, createTestApp, json, PUBLIC_URL, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { type AdminClient, adminClient } from "./helpers.ts";

const call = (app: TestApp, key: string, mode = "ok") =>
  app.app.inject({
    method: "POST",
    url: "/v1/tool/echo",
    headers: json(bearer(key)),
    payload: { value: 1, mode },
  });

interface Setup {
  app: TestApp;
  admin: AdminClient;
  keys: { id: string; key: string; account: string }[];
}

async function setup(t: Parameters<typeof createTestApp>[1]): Promise<Setup> {
  const app = await createTestApp({}, t);
  const admin = await adminClient(app);
  const keys = [];
  for (const _ of [0, 1]) {
    const key = await app.key("builder");
    const record = await app.recordOf(key);
    keys.push({ id: record.id, key, account: record.accountId });
  }
  return { app, admin, keys };
}

/** The NDJSON lines of an answer, parsed. */
function lines(body: string): Record<string, unknown>[] {
  if (body === "") return [];
  assert.ok(body.endsWith("\n"), "every line ends with a newline");
  return body
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("admin API: who called", () => {
  it("lists calls newest first with who made them, filtered and paged", async (t) => {
    const { app, admin, keys } = await setup(t);
    const [a, b] = keys as [Setup["keys"][0], Setup["keys"][0]];
    for (const key of [a, b, a]) assert.equal((await call(app, key.key)).statusCode, 200);
    const all = await admin.get("/calls");
    assert.equal(all.statusCode, 200, all.body);
    const listed = all.json().calls as Record<string, unknown>[];
    assert.equal(listed.length, 3);
    assert.deepEqual(
      listed.map((c) => c.key_id),
      [a.id, b.id, a.id],
    );
    assert.deepEqual(
      { ...listed[0], id: "", request_id: "", at: "", settled_at: "" },
      {
        id: "",
        request_id: "",
        account_id: a.account,
        key_id: a.id,
        tool: "echo",
        outcome: "charged",
        http_status: 200,
        credits: listed[0]?.credits,
        at: "",
        settled_at: "",
        credential: "key",
        transport: "http",
        client: null,
      },
    );
    const ofB = await admin.get(`/calls?key=${b.id}`);
    assert.deepEqual(
      ofB.json().calls.map((c: { key_id: string }) => c.key_id),
      [b.id],
    );
    const ofA = await admin.get(`/calls?account=${a.account}&tool=echo&outcome=charged`);
    assert.equal(ofA.json().calls.length, 2);
    assert.equal((await admin.get("/calls?outcome=refunded")).json().calls.length, 0);
    assert.equal((await admin.get("/calls?since=2099-01-01T00:00:00Z")).json().calls.length, 0);

    const first = (await admin.get("/calls?limit=2")).json();
    assert.equal(first.calls.length, 2);
    assert.equal(typeof first.next_cursor, "string");
    const second = (await admin.get(`/calls?limit=2&cursor=${first.next_cursor}`)).json();
    assert.deepEqual(
      [...first.calls, ...second.calls].map((c: { id: string }) => c.id),
      listed.map((c) => c.id),
    );
    assert.equal(second.next_cursor, null);
  });

  it("refuses bad filters and cursors naming the field", async (t) => {
    const { admin } = await setup(t);
    for (const [query, field] of [
      ["outcome=lost", "outcome"],
      ["since=yesterday", "since"],
      ["until=2026-13-45T00:00:00Z", "until"],
      ["limit=0", "limit"],
      ["cursor=bm9wZQ", "cursor"],
      ["key=a%20b", "key"],
      ["colour=red", "colour"],
    ] as const) {
      const answer = await admin.get(`/calls?${query}`);
      assertProblem(answer, 400, "validation_error");
      assert.ok(field in (answer.json().fields ?? {}), `${query}: ${answer.body}`);
    }
    for (const [query, field] of [
      ["since=nope", "since"],
      ["limit=5000", "limit"],
      ["cursor=bm9wZQ", "cursor"],
      ["key=k", "key"],
    ] as const) {
      const answer = await admin.get(`/usage/events?${query}`);
      assertProblem(answer, 400, "validation_error");
      assert.ok(field in (answer.json().fields ?? {}), `${query}: ${answer.body}`);
    }
    // A cursor of the listing is not one of the export.
    const { app, keys } = await setup(t);
    await call(app, keys[0]?.key ?? "");
    await call(app, keys[0]?.key ?? "");
    const other = await adminClient(app, "other");
    const listing = (await other.get("/calls?limit=1")).json().next_cursor as string;
    assertProblem(await other.get(`/usage/events?cursor=${listing}`), 400, "validation_error");
  });

  it("exports settled calls as NDJSON CloudEvents, the same ids in the same order in pages and whole", async (t) => {
    const { app, admin, keys } = await setup(t);
    const [a, b] = keys as [Setup["keys"][0], Setup["keys"][0]];
    for (const key of [a, b, a, b, a]) assert.equal((await call(app, key.key)).statusCode, 200);
    // A call whose tool fails is refunded: exported at 0 credits.
    assert.equal((await call(app, b.key, "unprocessable")).statusCode, 422);

    const whole = await admin.get("/usage/events");
    assert.equal(whole.statusCode, 200, whole.body);
    assert.match(String(whole.headers["content-type"]), /^application\/x-ndjson/);
    assert.equal(whole.headers["toolrun-more"], "false");
    const events = lines(whole.body);
    const listed = (await admin.get("/calls")).json().calls as { id: string; outcome: string }[];
    assert.equal(events.length, listed.length);
    const event = events[0] as Record<string, unknown>;
    assert.deepEqual(Object.keys(event).sort(), [
      "data",
      "datacontenttype",
      "id",
      "source",
      "specversion",
      "subject",
      "time",
      "type",
    ]);
    assert.equal(event.specversion, "1.0");
    assert.equal(event.type, "toolrun.call");
    assert.equal(event.source, PUBLIC_URL);
    assert.equal(event.subject, a.account);
    assert.equal(event.datacontenttype, "application/json");
    assert.equal(event.id, listed.at(-1)?.id, "the oldest call first");
    assert.deepEqual(Object.keys(event.data as object).sort(), [
      "client",
      "credential",
      "credits",
      "key_id",
      "outcome",
      "request_id",
      "tool",
      "transport",
    ]);
    const validLine = new Ajv2020({ strict: false, validateFormats: false }).compile(usageEventSchema);
    for (const e of events) {
      assert.ok(validLine(e), JSON.stringify(validLine.errors));
      const data = e.data as { outcome: string; credits: number };
      if (data.outcome === "refunded") assert.equal(data.credits, 0);
    }

    for (let round = 0; round < 2; round++) {
      const paged: unknown[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await admin.get(`/usage/events?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        assert.equal(page.statusCode, 200, page.body);
        paged.push(...lines(page.body).map((e) => e.id));
        cursor = page.headers["toolrun-next-cursor"] as string;
        if (page.headers["toolrun-more"] !== "true") break;
      }
      assert.deepEqual(
        paged,
        events.map((e) => e.id),
      );
      // Polling on from the last cursor: nothing new, the same place kept.
      const after = await admin.get(`/usage/events?cursor=${cursor}`);
      assert.equal(after.body, "");
      assert.equal(after.headers["toolrun-next-cursor"], cursor);
    }

    const ofA = lines((await admin.get(`/usage/events?account=${a.account}`)).body);
    assert.equal(ofA.length, 3);
    assert.ok(ofA.every((e) => e.subject === a.account));
  });
});
