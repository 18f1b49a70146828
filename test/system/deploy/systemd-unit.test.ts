/**
 * The systemd unit docs/deploy.md installs passes `systemd-analyze verify` (Debian's systemd
 * package provides it; nothing runs systemd here, and the unit is verified without starting it).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const UNIT = fileURLToPath(new URL("../../../deploy/toolrun.service", import.meta.url));
const ANALYZE = "/usr/bin/systemd-analyze";

describe("the systemd unit", () => {
  it("passes systemd-analyze verify with nothing to say", async (t) => {
    if (!existsSync(ANALYZE)) return t.skip(`${ANALYZE} is missing: apt-get install -y systemd`);
    const { stdout, stderr } = await promisify(execFile)(ANALYZE, ["verify", UNIT]);
    // Warnings about the machine's own units are not the unit's.
    const about = stderr.split("\n").filter((line) => line.includes("toolrun.service"));
    assert.deepEqual(about, [], stderr);
    assert.equal(stdout.trim(), "");
  });

  it("runs the service as its own user, drains on stop and restarts on failure", () => {
    const unit = readFileSync(UNIT, "utf8");
    assert.match(unit, /^ExecStart=\/usr\/bin\/node bin\/toolrun\.js serve$/m);
    assert.match(unit, /^User=toolrun$/m);
    assert.match(unit, /^KillSignal=SIGTERM$/m);
    assert.match(unit, /^Restart=on-failure$/m);
  });
});
