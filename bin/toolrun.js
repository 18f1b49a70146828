#!/usr/bin/env node
// Plain JavaScript, so any Node can run it: the CLI itself is TypeScript run by Node 24's type
// stripping. On an older Node it hands over to the Node 24 that `npm ci` installs beside it (so
// `npm link` and a path to this file work from anywhere), or says what to do when there is none.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split(".")[0]);

if (major >= REQUIRED_MAJOR) {
  const { main } = await import("../src/cli/main.ts");
  const code = await main(process.argv.slice(2), process.env);
  if (code !== 0) process.exitCode = code;
} else {
  const pinned = fileURLToPath(new URL("../node_modules/node/bin/node", import.meta.url));
  const self = fileURLToPath(import.meta.url);
  if (existsSync(pinned)) {
    const child = spawn(pinned, [self, ...process.argv.slice(2)], { stdio: "inherit" });
    // The signals an operator or a supervisor sends go to the real process.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
    child.on("exit", (code, signal) => {
      process.exitCode = code ?? (signal ? 128 : 1);
    });
  } else {
    process.stderr.write(
      `toolrun: needs Node.js ${REQUIRED_MAJOR} or later, and this is Node.js ${process.versions.node}. ` +
        `Run \`npm ci\` in ${fileURLToPath(new URL("..", import.meta.url))} (it installs the Node ${REQUIRED_MAJOR} the project pins), ` +
        `or run toolrun with a Node ${REQUIRED_MAJOR}.\n`,
    );
    process.exitCode = 1;
  }
}
