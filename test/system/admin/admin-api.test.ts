/**
 * The admin API as an operator meets it: an admin key made by `toolrun admin-keys create` on the
 * database's machine, then a started server administered over HTTP with it; CLI changes and API
 * changes land in the same audit log, the CLI's under the operating-system user. Run on SQLite and,
 * where TOOLRUN_TEST_DATABASE_URL is set, on PostgreSQL.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { dropSchema, uniqueSchema } from "../../adapters/postgres-fixture.ts";
import { runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";

const dir = mkdtempSync(join(tmpdir(), "toolrun-admin-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const postgres = testDatabaseUrl();
const schema = uniqueSchema();
if (postgres.url) after(() => dropSchema(postgres.url, schema));

const databases: [string, Record<string, string>, string | false][] = [
  ["SQLite", { TOOLRUN_DATABASE: join(dir, "toolrun.db") }, false],
  ["PostgreSQL", { TOOLRUN_DATABASE: postgres.url ?? "", TOOLRUN_DATABASE_SCHEMA: schema }, postgres.skip],
];

for (const [name, env, skip] of databases) {
  describe(`admin API on a started server (${name})`, { skip }, () => {
    it("an admin key from the CLI administers keys, credits and tools; the audit log has every action", async () => {
      assert.equal((await runCli(["migrate"], env)).code, 0);
      const made = await runCli(["admin-keys", "create", "--name", "ops", "--json"], env);
      assert.equal(made.code, 0, made.stderr);
      const adminKey = JSON.parse(made.stdout) as { id: string; key: string; name: string };
      assert.match(adminKey.key, /^tr_admin_[0-9A-Za-z]{32}$/);
      const listed = await runCli(["admin-keys", "list", "--json"], env);
      assert.doesNotMatch(listed.stdout, new RegExp(adminKey.key));
      assert.equal(JSON.parse(listed.stdout)[0].id, adminKey.id);

      let server: ServerProcess | undefined;
      try {
        server = await startServerProcess(env);
        const base = server.url;
        const admin = (method: string, path: string, body?: unknown) =>
          fetch(`${base}/admin/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${adminKey.key}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
        const created = await admin("POST", "/keys", { plan: "free", name: "acme", monthly_allowance: 2 });
        assert.equal(created.status, 201);
        const key = (await created.json()) as { id: string; key: string; account_id: string };
        const call = () =>
          fetch(`${base}/v1/tool/retaining-wall-pressure-calculator`, {
            method: "POST",
            headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
            body: JSON.stringify({ height: 3, unitWeight: 18, frictionAngle: 30 }),
          });
        assert.equal((await call()).status, 200);
        assert.equal((await call()).status, 402);

        // A grant through the key lasts the month and is spent once the allowance is.
        const granted = await admin("POST", `/keys/${key.id}/grants`, { credits: 2 });
        assert.equal(granted.status, 200);
        assert.equal(((await granted.json()) as { monthly_allowance: number }).monthly_allowance, 2);
        assert.equal((await call()).status, 200);

        // The CLI, on the same database, through the same core functions.
        const cliGrant = await runCli(["keys", "grant", key.id, "5", "--reason", "goodwill"], env);
        assert.equal(cliGrant.code, 0, cliGrant.stderr);
        const expired = await runCli(["keys", "update", key.id, "--expires", "2020-01-01T00:00:00Z"], env);
        assert.equal(expired.code, 0, expired.stderr);
        const refused = await call();
        assert.equal(refused.status, 401);
        assert.match(
          ((await refused.json()) as { detail: string }).detail,
          /expired at 2020-01-01T00:00:00\.000Z/,
        );

        const other = (await (await admin("POST", "/keys", { plan: "builder" })).json()) as { id: string };
        assert.equal((await admin("POST", `/keys/${other.id}/revoke`)).status, 200);
        assert.equal(
          (await runCli(["tools", "set", "webhook-payload-inspector", "--api", "false"], env)).code,
          0,
        );
        const off = await admin("PATCH", "/tools/retaining-wall-pressure-calculator", { enabled: false });
        assert.equal(((await off.json()) as { enabled: boolean }).enabled, false);

        const customerOnAdmin = await fetch(`${base}/admin/v1/keys`, {
          headers: { authorization: `Bearer ${key.key}` },
        });
        assert.equal(customerOnAdmin.status, 401);

        const log = (await (await admin("GET", "/audit")).json()) as {
          entries: {
            action: string;
            target: string;
            actor: { type: string; id: string };
            request_id: string | null;
          }[];
        };
        const cli = { type: "cli", id: userInfo().username };
        const api = { type: "admin_key", id: adminKey.id };
        assert.deepEqual(
          log.entries.map((e) => [e.action, e.target, e.actor]),
          [
            ["tools.set", "retaining-wall-pressure-calculator", api],
            ["tools.set", "webhook-payload-inspector", cli],
            ["keys.revoke", other.id, api],
            ["keys.create", other.id, api],
            ["keys.update", key.id, cli],
            // A key's grant goes to its account, and is audited there.
            ["credits.grant", key.account_id, cli],
            ["credits.grant", key.account_id, api],
            ["keys.create", key.id, api],
            ["admin_keys.create", adminKey.id, cli],
          ],
        );
        assert.ok(
          log.entries
            .filter((e) => e.actor.type === "admin_key")
            .every((e) => e.request_id?.startsWith("req_")),
        );
        assert.ok(log.entries.filter((e) => e.actor.type === "cli").every((e) => e.request_id === null));

        const usage = (await (await admin("GET", `/keys/${key.id}/usage`)).json()) as {
          credits: { monthly_allowance: number; credits_used: number; credits_remaining: number };
          usage: { calls: number };
        };
        // The first grant paid the second call; the CLI's grant is left whole.
        assert.deepEqual(
          [
            usage.credits.monthly_allowance,
            usage.credits.credits_used,
            usage.credits.credits_remaining,
            usage.usage.calls,
          ],
          [2, 2, 5, 2],
        );

        const revokedAdmin = await runCli(["admin-keys", "revoke", adminKey.id], env);
        assert.equal(revokedAdmin.code, 0, revokedAdmin.stderr);
        assert.equal((await admin("GET", "/keys")).status, 401);
      } finally {
        // Only a started server is stopped, so that a failure to start is the one reported.
        if (server) assert.equal(await server.stop(), 0);
      }
    });
  });
}
