/**
 * One key cannot starve the others on a real server's worker thread: a key sending six of the
 * inspector's slowest calls at once (a 1 MiB Stripe delivery with 4,000 signatures and a secret)
 * gets each either its answer or 429 `too_many_large_calls`, while another key's plain 1 MiB call
 * is answered; a flood of 1 MiB calls from many keys is answered each with 200, 429 or 503
 * `server_busy` (never a 500, never a hang), and the server serves on after it. The times and the
 * memory are reported, not asserted: `node bench/compute-fairness.ts` compares them with a build
 * from before (docs/benchmarks.md).
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { attack, createKeys, flood, inspect } from "../../../bench/lib/fairness.ts";
import { githubPushNear } from "../../../bench/lib/payloads.ts";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";

const ALLOWED = new Set(["200", "429 too_many_large_calls", "503 server_busy"]);

describe("one key against the others on the worker thread", () => {
  let server: ServerProcess;
  let keys: string[];
  let dir: string;
  before(async () => {
    const database = await migratedDatabase("toolrun-fairness-");
    dir = database.dir;
    const admin = await runCli(["admin-keys", "create", "--json"], database.env);
    assert.equal(admin.code, 0, admin.stderr);
    server = await startServerProcess(database.env);
    keys = await createKeys(server.url, (JSON.parse(admin.stdout) as { key: string }).key, 22);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers another key's 1 MiB call while one key sends six of the slowest calls", async (t) => {
    const [attacker, victim] = keys as [string, string];
    const result = await attack(server.url, attacker, victim);
    assert.equal(result.victimAlone.status, 200);
    assert.equal(result.victimUnderAttack.status, 200);
    for (const answer of result.attacker) {
      const name = answer.code === null ? String(answer.status) : `${answer.status} ${answer.code}`;
      assert.ok(name === "200" || name === "429 too_many_large_calls", name);
    }
    assert.ok(result.attacker.some((answer) => answer.status === 200));
    t.diagnostic(
      `victim alone ${Math.round(result.victimAlone.ms)} ms, beside the attack ${Math.round(result.victimUnderAttack.ms)} ms; attacker: ${result.attacker.map((a) => a.status).join(", ")}`,
    );
  });

  it("answers a flood of 1 MiB calls from 20 keys each with 200, 429 or 503, then serves on", async (t) => {
    const others = keys.slice(2);
    const flooded = await flood(server.url, server.child.pid as number, others, 120, { spreadMs: 1_000 });
    for (const name of Object.keys(flooded.answers)) assert.ok(ALLOWED.has(name), `answered ${name}`);
    const after = await inspect(server.url, others[0] as string, githubPushNear());
    assert.equal(after.status, 200);
    t.diagnostic(
      `RSS ${Math.round(flooded.rssBeforeMiB)} -> peak ${Math.round(flooded.rssPeakMiB)} MiB; answers ${JSON.stringify(flooded.answers)} in ${Math.round(flooded.elapsedMs)} ms`,
    );
  });
});
