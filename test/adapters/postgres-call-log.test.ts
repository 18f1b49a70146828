import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client } from "pg";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { describeCallLogContract } from "../contracts/call-log.contract.ts";
import { newKey, reservation } from "../contracts/store.contract.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { dropSchema, uniqueSchema, withLedgerSteps } from "./postgres-fixture.ts";

const database = testDatabaseUrl();

describe("PostgreSQL call log", { skip: database.skip }, () => {
  const url = database.url ?? "";
  async function open() {
    const schema = uniqueSchema();
    const store = await createPostgresStore({ url, schema, poolSize: 4, keyCache: false });
    await store.migrate();
    return {
      schema,
      store,
      async cleanup() {
        await store.close();
        await dropSchema(url, schema);
      },
    };
  }

  describeCallLogContract("postgres", open);

  it("holds back a call committed after a settlement still in progress, then gives both in order", async (t) => {
    const fixture = await open();
    t.after(() => fixture.cleanup());
    const store = withLedgerSteps(fixture.store);
    const key = newKey({ monthlyAllowance: 100 });
    await store.createKey(key);
    const early = reservation(key.id);
    assert.equal((await store.reserve(early)).ok, true);
    // The settlement's transaction starts (taking its transaction id) and stays open.
    const settling = new Client({ connectionString: url });
    await settling.connect();
    t.after(() => settling.end());
    await settling.query(`SET search_path TO ${fixture.schema}`);
    await settling.query("BEGIN");
    await settling.query("SELECT toolrun_settle($1, 200, NULL, NULL)", [early.callId]);
    const later = reservation(key.id);
    assert.equal((await store.runCall(later, () => ({ ok: true, value: null }))).status, "charged");
    const held = await store.usageEvents({ limit: 10, cursor: null });
    assert.deepEqual(held.calls, []);
    await settling.query("COMMIT");
    // Other transactions open in the database (other tests') may hold both back a moment longer.
    let given = await store.usageEvents({ limit: 10, cursor: held.nextCursor });
    for (let tries = 0; given.calls.length < 2 && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      given = await store.usageEvents({ limit: 10, cursor: held.nextCursor });
    }
    assert.deepEqual(
      given.calls.map((c) => c.callId),
      [early.callId, later.callId],
    );
  });
});
