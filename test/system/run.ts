/**
 * Spawns toolrun the ways an operator does (npm start, npx, a path to bin/toolrun.js, another
 * Node) from any directory, with only the environment given, and reads what it prints.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = fileURLToPath(new URL("../../bin/toolrun.js", import.meta.url));
export const PINNED_NODE = fileURLToPath(new URL("../../node_modules/node/bin/node", import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Started {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** The environment without any toolrun, HOST or PORT setting of the caller's. */
export function cleanEnv(env: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("TOOLRUN_") || name === "PORT" || name === "HOST") continue;
    // Not inside the test runner's own npm script: npm start and npx must behave as for a user.
    if (name.startsWith("npm_")) continue;
    clean[name] = value;
  }
  return { ...clean, ...env };
}

export function start(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd = ROOT,
): Started {
  const child = spawn(command, args, { cwd, env: cleanEnv(env) });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

export async function run(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd = ROOT,
): Promise<Finished> {
  const started = start(command, args, env, cwd);
  const code = await started.exited;
  return { code, stdout: started.stdout(), stderr: started.stderr() };
}

/** Runs bin/toolrun.js on the pinned Node 24. */
export function toolrun(args: readonly string[], env: Record<string, string>, cwd = ROOT): Promise<Finished> {
  return run(PINNED_NODE, [BIN, ...args], env, cwd);
}

/** Resolves with the URL once the server says it listens; rejects if it exits first or takes too long. */
export async function listening(started: Started, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /toolrun listening on (http:\/\/\S+)/.exec(started.stderr());
    if (match?.[1]) return match[1];
    if (started.child.exitCode !== null) break;
    await Promise.race([once(started.child.stderr ?? started.child, "data"), started.exited, sleep(200)]);
  }
  throw new Error(`server did not start:\n${started.stdout()}\n${started.stderr()}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The lines of a stream's text, without the warnings npm itself prints about the machine's npmrc. */
export function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("npm warn"));
}
