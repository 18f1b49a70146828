/**
 * The client's build is committed (clients/typescript/dist), so the checkout and the packed
 * tarball work without TypeScript: building its sources now must give exactly those files.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const CLIENT = fileURLToPath(new URL("../../clients/typescript/", import.meta.url));
const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

function files(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), "utf8")]));
}

it("clients/typescript/dist is what its sources build to (npm run build:client)", async (t) => {
  const out = mkdtempSync(join(tmpdir(), "toolrun-client-build-"));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  await promisify(execFile)(process.execPath, [TSC, "-p", join(CLIENT, "tsconfig.json"), "--outDir", out]);
  const built = files(out);
  const committed = files(join(CLIENT, "dist"));
  assert.deepEqual([...committed.keys()].sort(), [...built.keys()].sort());
  for (const [name, text] of built) assert.equal(committed.get(name), text, `dist/${name} is stale`);
});
