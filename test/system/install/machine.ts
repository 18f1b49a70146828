/**
 * The machine as a new user has it: its own Node (20 here) and npm first on PATH, none of the
 * checkout's `node_modules/.bin` (where the pinned Node 24 is) and none of the variables npm sets
 * for the test run's own script.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter } from "node:path";

export const SYSTEM_NODE = ["/usr/local/bin/node", "/usr/bin/node", "/bin/node"].find((p) => existsSync(p));

/** PATH without any node_modules folder (the checkout's bins, npm's node-gyp shim). */
export const SYSTEM_PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir !== "" && !dir.includes("node_modules"))
  .join(delimiter);

/** The system Node's version, e.g. `20.20.2`; undefined when the machine has none. */
export const SYSTEM_NODE_VERSION =
  SYSTEM_NODE === undefined
    ? undefined
    : execFileSync(SYSTEM_NODE, ["-p", "process.versions.node"]).toString().trim();

/** Why these tests cannot run here, or false. In CI a missing Node fails instead, as a missing browser does. */
export const NO_SYSTEM_NODE: string | false = noSystemNode();

function noSystemNode(): string | false {
  if (SYSTEM_NODE !== undefined) return false;
  const reason = "no Node.js of the machine's own (/usr/bin/node) to install with";
  if (process.env.CI) throw new Error(reason);
  return reason;
}

/** The environment for the machine's npm and node: the caller's variables on a clean PATH. */
export function machineEnv(env: Record<string, string> = {}): Record<string, string> {
  return { PATH: SYSTEM_PATH, ...env };
}
