/**
 * A small filesystem of its own for a test that needs a disk to fill: a tmpfs mounted on a fresh
 * directory, unmounted and removed when the test ends. Mounting needs root (or CAP_SYS_ADMIN);
 * without it the test is skipped, saying so.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";

/** The mounted directory, or null when the test was skipped for want of the right to mount. */
export function smallDisk(t: TestContext, size = "2m"): string | null {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    t.skip("needs to mount a small tmpfs (root, or CAP_SYS_ADMIN)");
    return null;
  }
  t.after(() => {
    execFileSync("umount", ["-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
