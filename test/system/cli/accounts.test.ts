/**
 * `toolrun accounts ...` and `toolrun keys create --account`, as an operator runs them: an account
 * made, listed, shown with its keys and changed, each change audited; its keys share its plan, and
 * mistakes end in one line naming what is wrong.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli } from "../../helpers/process.ts";

describe("toolrun accounts", () => {
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-accounts-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const json = async (args: string[]) => {
    const run = await runCli([...args, "--json"], env);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  };

  it("creates an account, gives it keys, shows, lists and updates it", async () => {
    const account = await json([
      "accounts",
      "create",
      "--name",
      "acme",
      "--plan",
      "builder",
      "--credits",
      "900",
    ]);
    assert.match(account.id, /^acc_[0-9A-Za-z]{16}$/);
    assert.deepEqual(
      [account.name, account.plan, account.monthly_allowance, account.key_count],
      ["acme", "builder", 900, 0],
    );
    const ci = await json(["keys", "create", "--account", account.id, "--name", "ci"]);
    const laptop = await json(["keys", "create", "--account", account.id, "--name", "laptop"]);
    for (const key of [ci, laptop]) {
      assert.equal(key.account_id, account.id);
      assert.equal(key.plan, "builder");
      assert.match(key.key, /^tr_live_/);
    }
    const shown = await json(["accounts", "show", account.id]);
    assert.equal(shown.account.key_count, 2);
    assert.deepEqual(shown.keys.map((k: { id: string }) => k.id).sort(), [ci.id, laptop.id].sort());
    const table = await runCli(["accounts", "show", account.id], env);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`${account.id}\\s+builder\\s+900\\s+0\\s+900\\s+acme`));
    assert.match(table.stdout, new RegExp(`${ci.id}\\s+\\S+\\s+active\\s+ci`));

    const updated = await json(["accounts", "update", account.id, "--plan", "free", "--credits", "plan"]);
    assert.deepEqual([updated.plan, updated.own_monthly_allowance], ["free", null]);
    const alerted = await json([
      "accounts",
      "update",
      account.id,
      "--alerts-used",
      "90,50",
      "--alerts-remaining",
      "none",
    ]);
    assert.deepEqual(alerted.alerts, { usedPercent: [50, 90], remainingBelow: [] });
    assert.equal((await json(["accounts", "update", account.id, "--alerts-default"])).alerts, null);
    const keys = await json(["keys", "list"]);
    for (const key of keys.filter((k: { account_id: string }) => k.account_id === account.id))
      assert.equal(key.plan, "free");

    const solo = await json(["keys", "create", "--plan", "builder", "--name", "solo", "--credits", "70"]);
    // Back to the plan's allowance: a key's own allowance is its account's.
    const back = await json(["keys", "update", solo.id, "--credits", "plan"]);
    assert.deepEqual([back.own_monthly_allowance, back.monthly_allowance], [null, 100_000]);
    const listed = await json(["accounts", "list"]);
    const ids = listed.map((a: { id: string }) => a.id);
    assert.ok(ids.includes(account.id) && ids.includes(solo.account_id), JSON.stringify(ids));
    const lines = await runCli(["accounts", "list"], env);
    assert.equal(lines.code, 0, lines.stderr);
    assert.match(lines.stdout.split("\n")[0] ?? "", /^ID\s+PLAN\s+ALLOWANCE\s+USED\s+KEYS\s+NAME\s+CREATED$/);
  });

  it("gives an account grants, once per reference, and lists them in spend order", async () => {
    const account = await json(["accounts", "create", "--name", "grants", "--plan", "free"]);
    const never = await json([
      "accounts",
      "grant",
      account.id,
      "300",
      "--reference",
      "cs_1",
      "--category",
      "paid",
    ]);
    assert.deepEqual(
      [never.credits, never.remaining, never.expires_at, never.category, never.reference],
      [300, 300, null, "paid", "cs_1"],
    );
    const again = await runCli(["accounts", "grant", account.id, "300", "--reference", "cs_1"], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(`already has grant ${never.id} for reference cs_1; nothing granted`),
    );
    const soon = await runCli(
      ["accounts", "grant", account.id, "50", "--expires", "2999-01-01T00:00:00Z"],
      env,
    );
    assert.equal(soon.code, 0, soon.stderr);
    assert.match(
      soon.stdout,
      /^Granted 50 credits to acc_\w+ \(grt_\w+, promotional\); they expire at 2999-01-01T00:00:00\.000Z\.\n$/,
    );
    const listed = await json(["accounts", "grants", account.id]);
    assert.deepEqual(
      listed.map((g: { credits: number; reference: string | null }) => [g.credits, g.reference]),
      [
        [50, null],
        [300, "cs_1"],
      ],
    );
    const table = await runCli(["accounts", "grants", account.id], env);
    assert.match(
      table.stdout.split("\n")[0] ?? "",
      /^GRANT\s+CATEGORY\s+CREDITS\s+LEFT\s+EXPIRES\s+REFERENCE$/,
    );
    const past = await runCli(
      ["accounts", "grant", account.id, "5", "--expires", "2020-01-01T00:00:00Z"],
      env,
    );
    assert.equal(past.code, 1);
    assert.match(
      past.stderr,
      /^toolrun: The grant would be expired already\. \(expires_at must be in the future\)/,
    );
  });

  it("says what is wrong in one line", async () => {
    const both = await runCli(["keys", "create", "--account", "acc_x", "--plan", "free"], env);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /^toolrun: The new key is invalid\. \(plan must be absent with account_id/);
    const percent = await runCli(["accounts", "update", "acc_x", "--alerts-used", "80%"], env);
    assert.equal(percent.code, 2);
    assert.match(percent.stderr, /--alerts-used/);
    const missing = await runCli(["keys", "create", "--account", "acc_missing"], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^toolrun: No account has this id\.\n$/);
    const show = await runCli(["accounts", "show", "acc_missing"], env);
    assert.equal(show.code, 1);
    assert.match(show.stderr, /No account has this id/);
    const plan = await runCli(["accounts", "create", "--name", "x", "--plan", "gold"], env);
    assert.match(plan.stderr, /^toolrun: Unknown plan\. \(plan must be one of: free, builder\)/);
    const name = await runCli(["accounts", "create", "--plan", "free"], env);
    assert.equal(name.code, 2);
    assert.match(name.stderr, /required option '--name <text>' not specified/);
  });
});
