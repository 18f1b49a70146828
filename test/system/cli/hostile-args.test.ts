/**
 * Plan names and numbers the stores cannot take are refused at the command line, so no
 * key exists that every call would fail for.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli } from "../../helpers/process.ts";

describe("toolrun keys create with hostile arguments", () => {
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    ({ dir, env } = await migratedDatabase("toolrun-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses plans named like Object.prototype members, and creates no key", async () => {
    for (const plan of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const result = await runCli(["keys", "create", "--plan", plan, "--json"], env);
      assert.notEqual(result.code, 0, `--plan ${plan} was accepted: ${result.stdout}`);
      assert.match(result.stderr, /Unknown plan\. \(plan must be one of: free, builder\)/);
      assert.equal(result.stdout, "");
    }
    const listed = await runCli(["keys", "list", "--json"], env);
    assert.deepEqual(JSON.parse(listed.stdout), []);
  });

  it("refuses --credits beyond the most a key's own allowance may be (what every store holds)", async () => {
    const result = await runCli(["keys", "create", "--plan", "free", "--credits", "3000000000"], env);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /--credits/);
    const fits = await runCli(["keys", "create", "--plan", "free", "--credits", "1000000000", "--json"], env);
    assert.equal(fits.code, 0, fits.stderr);
    assert.equal(JSON.parse(fits.stdout).monthly_allowance, 1000000000);
  });
});
