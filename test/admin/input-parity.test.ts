/**
 * Every admin input gets the same answer on SQLite and on PostgreSQL, and never a 500: what the
 * admin API accepts is decided once, before the store (NUL characters, which PostgreSQL cannot
 * store in text, refused as 400 naming the field; cursors whose positions no store issued;
 * expiries outside the years 1970 to 9999). Each input goes to both stores; their answers are
 * compared field by field.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { encodeCursor } from "../../src/core/contract/cursor.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { seededRandom } from "../helpers/random.ts";
import { storesToTest } from "../helpers/stores.ts";
import { type AdminClient, adminClient } from "./helpers.ts";

interface Input {
  readonly name: string;
  readonly method: "GET" | "POST" | "PATCH";
  /** The path below /admin/v1; `{id}` becomes an existing key's id. */
  readonly path: string;
  readonly body?: unknown;
  /** The field a 400 must name, when the input must be refused. */
  readonly refuses?: string;
}

const NUL = "\u0000";
const forgedKeys = (position: string) => encodeURIComponent(encodeCursor("k1", position));
const forgedSequence = (tag: string, position: string) => encodeURIComponent(encodeCursor(tag, position));

const INPUTS: readonly Input[] = [
  {
    name: "NUL in name",
    method: "POST",
    path: "/keys",
    body: { plan: "free", name: `a${NUL}b` },
    refuses: "name",
  },
  { name: "NUL in plan", method: "POST", path: "/keys", body: { plan: `fr${NUL}ee` }, refuses: "plan" },
  {
    name: "NUL in a metadata value",
    method: "POST",
    path: "/keys",
    body: { plan: "free", metadata: { team: `x${NUL}` } },
    refuses: "metadata.team",
  },
  {
    name: "year 0 expiry",
    method: "POST",
    path: "/keys",
    body: { plan: "free", expires_at: "0000-01-01T00:00:00Z" },
    refuses: "expires_at",
  },
  {
    name: "expiry past the year 9999 once in UTC",
    method: "POST",
    path: "/keys",
    body: { plan: "free", expires_at: "9999-12-31T23:00:00-05:00" },
    refuses: "expires_at",
  },
  {
    name: "expiry before 1970",
    method: "POST",
    path: "/keys",
    body: { plan: "free", expires_at: "1969-12-31T23:59:59Z" },
    refuses: "expires_at",
  },
  {
    name: "expiry at 24:00",
    method: "POST",
    path: "/keys",
    body: { plan: "free", expires_at: "2030-01-01T24:00:00Z" },
  },
  {
    name: "a lone surrogate in name",
    method: "POST",
    path: "/keys",
    body: { plan: "free", name: "x\ud800y" },
  },
  {
    name: "NUL in name, update",
    method: "PATCH",
    path: "/keys/{id}",
    body: { name: `a${NUL}` },
    refuses: "name",
  },
  {
    name: "year 0 expiry, update",
    method: "PATCH",
    path: "/keys/{id}",
    body: { expires_at: "0000-01-01T00:00:00Z" },
    refuses: "expires_at",
  },
  { name: "NUL in a key id, read", method: "GET", path: "/keys/key_%00abc", refuses: "id" },
  {
    name: "NUL in a key id, update",
    method: "PATCH",
    path: "/keys/key_%00abc",
    body: { name: "x" },
    refuses: "id",
  },
  { name: "NUL in a key id, rotate", method: "POST", path: "/keys/key_%00abc/rotate", refuses: "id" },
  { name: "NUL in a key id, revoke", method: "POST", path: "/keys/key_%00abc/revoke", refuses: "id" },
  {
    name: "NUL in a key id, grant",
    method: "POST",
    path: "/keys/key_%00abc/grants",
    body: { credits: 1 },
    refuses: "id",
  },
  { name: "NUL in a key id, usage", method: "GET", path: "/keys/key_%00abc/usage", refuses: "id" },
  { name: "a key id of other characters", method: "GET", path: "/keys/key%20%C3%A9%27%22", refuses: "id" },
  { name: "an unknown key id", method: "GET", path: "/keys/key_nosuchkey" },
  {
    name: "NUL in a grant's reason",
    method: "POST",
    path: "/keys/{id}/grants",
    body: { credits: 1, reason: `r${NUL}` },
    refuses: "reason",
  },
  {
    name: "NUL in a tool slug",
    method: "PATCH",
    path: "/tools/ec%00ho",
    body: { enabled: true },
    refuses: "slug",
  },
  { name: "an unknown tool slug", method: "PATCH", path: "/tools/no-such-tool", body: { enabled: true } },
  { name: "NUL in the audit target", method: "GET", path: "/audit?target=key_%00x", refuses: "target" },
  { name: "an audit target that names nothing", method: "GET", path: "/audit?target=nothing-here" },
  {
    name: "a keys cursor with an impossible time",
    method: "GET",
    path: `/keys?cursor=${forgedKeys("2026-99-99T99:99:99.999Z|key_x")}`,
    refuses: "cursor",
  },
  {
    name: "a keys cursor in the year 0",
    method: "GET",
    path: `/keys?cursor=${forgedKeys("0000-01-01T00:00:00.000Z|key_x")}`,
    refuses: "cursor",
  },
  {
    name: "a keys cursor with an offset",
    method: "GET",
    path: `/keys?cursor=${forgedKeys("2026-01-01T00:00:00+01:00|key_x")}`,
    refuses: "cursor",
  },
  {
    name: "an audit cursor past 64 bits",
    method: "GET",
    path: `/audit?cursor=${forgedSequence("a1", "9999999999999999999")}`,
    refuses: "cursor",
  },
  {
    name: "a usage cursor past 64 bits",
    method: "GET",
    path: `/keys/{id}/usage?cursor=${forgedSequence("u1", "9999999999999999999")}`,
    refuses: "cursor",
  },
];

/** Strings of the characters that trip stores: controls, quotes, backslashes, surrogates, the last code points. */
function randomText(random: () => number): string {
  const pool = [
    "\u0000",
    "\u0001",
    "\u001f",
    "\u007f",
    "'",
    '"',
    "\\",
    "%",
    "_",
    "\ud800",
    "\udfff",
    "\ufffe",
    "\uffff",
    "é",
    "😀",
    "a",
    "Z",
    "0",
    " ",
    "\n",
  ];
  const length = Math.floor(random() * 12);
  return Array.from({ length }, () => pool[Math.floor(random() * pool.length)]).join("");
}

/** Every byte of the text's UTF-8 percent-encoded (a lone surrogate is U+FFFD's bytes, as on any wire). */
const percent = (text: string) =>
  [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");

/** Inputs made of those strings in every place an admin input takes text (seeded, so a failure replays). */
function randomInputs(count: number): Input[] {
  const random = seededRandom(33);
  const inputs: Input[] = [];
  for (let i = 0; i < count; i++) {
    const text = randomText(random);
    const place = i % 6;
    const name = `random ${i}: ${JSON.stringify(text)} in ${["name", "metadata", "key id", "audit target", "reason", "keys cursor"][place]}`;
    if (place === 0) inputs.push({ name, method: "POST", path: "/keys", body: { plan: "free", name: text } });
    if (place === 1)
      inputs.push({ name, method: "PATCH", path: "/keys/{id}", body: { metadata: { m: text } } });
    if (place === 2) inputs.push({ name, method: "GET", path: `/keys/${percent(`key_${text}`)}` });
    if (place === 3) inputs.push({ name, method: "GET", path: `/audit?target=${percent(text || "x")}` });
    if (place === 4)
      inputs.push({ name, method: "POST", path: "/keys/{id}/grants", body: { credits: 1, reason: text } });
    if (place === 5)
      inputs.push({
        name,
        method: "GET",
        path: `/keys?cursor=${forgedKeys(`2026-01-01T00:00:00.000Z|${text}`)}`,
      });
  }
  return inputs;
}

/** What of an answer must be the same on every store. */
function shape(res: { statusCode: number; json(): unknown }): unknown {
  const body = res.json() as Record<string, unknown>;
  if (res.statusCode >= 400)
    return { status: res.statusCode, code: body.code, detail: body.detail, fields: body.fields };
  const { id: _id, account_id: _account, key: _key, prefix: _prefix, created_at: _created, ...rest } = body;
  return { status: res.statusCode, ...rest };
}

describe("admin inputs answered alike on every store", () => {
  const stores = storesToTest();
  const apps: { name: string; app: TestApp; admin: AdminClient; keyId: string }[] = [];
  const lifetime = untilSuiteEnds();
  before(async () => {
    for (const store of stores) {
      const app = await createTestApp({ store: await store.make() }, lifetime);
      const admin = await adminClient(app);
      const created = await admin.post("/keys", { plan: "free", name: "target" });
      apps.push({ name: store.name, app, admin, keyId: created.json().id });
    }
  });

  it("runs on PostgreSQL too, where the test database is set", () => {
    if (process.env.TOOLRUN_TEST_DATABASE_URL) assert.equal(apps.length, 2);
  });

  for (const input of [...INPUTS, ...randomInputs(120)]) {
    it(input.name, async () => {
      const answers = [];
      for (const { name, app, admin, keyId } of apps) {
        const res = await app.app.inject({
          method: input.method,
          url: `/admin/v1${input.path.replace("{id}", keyId)}`,
          headers: { authorization: `Bearer ${admin.key}`, "content-type": "application/json" },
          ...(input.body === undefined ? {} : { payload: JSON.stringify(input.body) }),
        });
        assert.ok(res.statusCode < 500, `${name}: ${res.statusCode} ${res.body}`);
        if (input.refuses !== undefined) {
          assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
          const fields = res.json().fields as Record<string, string>;
          assert.ok(fields && Object.hasOwn(fields, input.refuses), `${name}: ${res.body}`);
          assert.doesNotMatch(res.body, /\\u0000/, `${name} echoes the NUL`);
        }
        answers.push({ name, shape: shape(res) });
      }
      for (const answer of answers.slice(1)) assert.deepEqual(answer.shape, answers[0]?.shape, answer.name);
    });
  }
});
