/**
 * Backing up the SQLite file while the server takes paid calls, as docs/operations.md says: both
 * `VACUUM INTO` and sqlite3's `.backup` give a consistent copy (integrity check ok, every credit
 * charged in the copy matches a charged call in its usage) that a server started on it serves.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { BIN, listening, PINNED_NODE, start, toolrun } from "../run.ts";

const CALCULATOR = "/v1/tool/retaining-wall-pressure-calculator";
const INPUT = JSON.stringify({ height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 });

interface Usage {
  credits_used: number;
  by_tool: { tool: string; calls: number; credits: number }[];
}

describe("backing up the SQLite file while serving", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-backup-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("VACUUM INTO and sqlite3 .backup, under load, give copies a server serves with exact balances", async () => {
    const live = join(dir, "live.db");
    assert.equal((await toolrun(["migrate"], { TOOLRUN_DATABASE: live })).code, 0);
    const created = await toolrun(["keys", "create", "--plan", "builder", "--json"], {
      TOOLRUN_DATABASE: live,
    });
    const { key } = JSON.parse(created.stdout) as { key: string };
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const server = start(PINNED_NODE, [BIN, "serve"], {
      TOOLRUN_DATABASE: live,
      PORT: "0",
      LOG_LEVEL: "warn",
    });
    const copies: string[] = [];
    try {
      const url = await listening(server);
      let calling = true;
      const load = (async () => {
        let made = 0;
        while (calling) {
          await Promise.all(
            Array.from({ length: 10 }, () =>
              fetch(`${url}${CALCULATOR}`, { method: "POST", headers, body: INPUT }),
            ),
          );
          made += 10;
        }
        return made;
      })();
      // Mid-load: one copy through SQLite's VACUUM INTO, one through the sqlite3 shell's online backup.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const vacuumed = join(dir, "vacuum-into.db");
      const db = new DatabaseSync(live);
      db.exec(`VACUUM INTO '${vacuumed}'`);
      db.close();
      copies.push(vacuumed);
      if (existsSync("/usr/bin/sqlite3")) {
        const backedUp = join(dir, "dot-backup.db");
        execFileSync("/usr/bin/sqlite3", [live, `.backup '${backedUp}'`]);
        copies.push(backedUp);
      }
      calling = false;
      assert.ok((await load) > 0);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }

    for (const copy of copies) {
      const check = new DatabaseSync(copy, { readOnly: true });
      assert.equal(
        (check.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check,
        "ok",
      );
      check.close();
      const restored = start(PINNED_NODE, [BIN, "serve"], {
        TOOLRUN_DATABASE: copy,
        PORT: "0",
        LOG_LEVEL: "warn",
      });
      try {
        const url = await listening(restored);
        const usage = (await (await fetch(`${url}/v1/me/usage`, { headers })).json()) as Usage;
        const calls = usage.by_tool.find((t) => t.tool === "retaining-wall-pressure-calculator");
        assert.ok(calls && calls.calls > 0, `${copy} holds calls`);
        // The builder plan charges 1 credit a call: the copy's balance is its calls, none half-kept.
        assert.equal(usage.credits_used, calls.credits, copy);
        assert.equal(calls.credits, calls.calls, copy);
        const call = await fetch(`${url}${CALCULATOR}`, { method: "POST", headers, body: INPUT });
        assert.equal(call.status, 200, copy);
      } finally {
        restored.child.kill("SIGTERM");
        await restored.exited;
      }
    }
  });
});
