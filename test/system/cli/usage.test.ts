/**
 * `toolrun usage export` and `toolrun calls list`, as an operator runs them on a database holding
 * calls: the export writes every settled call as NDJSON CloudEvents, to standard output or a file,
 * the same with or without pages, and resumes from the cursor it printed; the listing shows who
 * called; a bad option ends in one line naming it.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createSqliteStore } from "../../../src/adapters/sqlite/store.ts";
import { newKey, reservation } from "../../contracts/store.contract.ts";
import { migratedDatabase, runCli } from "../../helpers/process.ts";

describe("toolrun usage export and calls list", () => {
  let dir: string;
  let env: Record<string, string>;
  const made: string[] = [];
  let accountId = "";

  /** Calls recorded in the database the CLI reads, as a server would have recorded them. */
  async function record(count: number) {
    const store = createSqliteStore(env.TOOLRUN_DATABASE ?? "");
    try {
      const key = newKey({ monthlyAllowance: 1000 });
      if (accountId === "") await store.createKey(key);
      const keyId = accountId === "" ? key.id : ((await store.listKeys())[0]?.id ?? "");
      accountId = (await store.getKey(keyId))?.accountId ?? "";
      for (let i = 0; i < count; i++) {
        const r = reservation(keyId, {
          accountId,
          origin: {
            credential: "key",
            oauthClientId: null,
            transport: "mcp",
            clientName: "claude-code",
            clientVersion: "2.1.0",
          },
        });
        await store.runCall(r, () => ({ ok: true, value: null }));
        made.push(r.callId);
      }
    } finally {
      await store.close();
    }
  }

  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-usage-"));
    await record(3);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const events = (text: string) =>
    text
      .trim()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id: string; subject: string; data: { transport: string } });

  it("exports every settled call to standard output, then resumes from the cursor it printed", async () => {
    const run = await runCli(["usage", "export"], env);
    assert.equal(run.code, 0, run.stderr);
    const first = events(run.stdout);
    assert.deepEqual(
      first.map((e) => e.id),
      made,
    );
    assert.ok(first.every((e) => e.subject === accountId && e.data.transport === "mcp"));
    const cursor = /--cursor (\S+)/.exec(run.stderr)?.[1];
    assert.ok(cursor, run.stderr);
    assert.match(run.stderr, /^3 events exported\./);

    await record(2);
    const resumed = await runCli(["usage", "export", "--cursor", cursor], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(
      events(resumed.stdout).map((e) => e.id),
      made.slice(3),
    );
  });

  it("writes the same events to a file, filtered by account", async () => {
    const out = join(dir, "usage.ndjson");
    const run = await runCli(["usage", "export", "--account", accountId, "--out", out], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "");
    assert.deepEqual(
      events(readFileSync(out, "utf8")).map((e) => e.id),
      made,
    );
  });

  it("lists calls with who made them", async () => {
    const json = await runCli(["calls", "list", "--account", accountId, "--limit", "2", "--json"], env);
    assert.equal(json.code, 0, json.stderr);
    const page = JSON.parse(json.stdout);
    assert.deepEqual(
      page.calls.map((c: { id: string }) => c.id),
      made.slice(-2).reverse(),
    );
    assert.equal(typeof page.next_cursor, "string");
    const table = await runCli(["calls", "list"], env);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /charged\s+2\s+key\s+mcp\s+claude-code 2\.1\.0/);
  });

  it("names the bad option", async () => {
    const since = await runCli(["usage", "export", "--since", "yesterday"], env);
    assert.equal(since.code, 1);
    assert.match(since.stderr, /since/);
    const outcome = await runCli(["calls", "list", "--outcome", "lost"], env);
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /outcome/);
  });
});
