/**
 * Processes the bench starts: `toolrun` itself (serve, migrate, keys create) and the baseline
 * server, each on the Node that runs the bench, optionally pinned to one CPU with `taskset`.
 * Server output goes to a log file (no pipe for the runner to drain while it generates load).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, closeSync, constants, openSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** This checkout's binary, or another one's (BENCH_TOOLRUN_BIN) to compare before and after a change. */
export const TOOLRUN_BIN = process.env.BENCH_TOOLRUN_BIN
  ? resolve(process.env.BENCH_TOOLRUN_BIN)
  : fileURLToPath(new URL("../../bin/toolrun.js", import.meta.url));
export const BASELINE_SCRIPT = fileURLToPath(new URL("../baseline-server.ts", import.meta.url));

export function findExecutable(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

/** The environment of the bench without any toolrun setting, so only what a case sets applies. */
export function cleanEnv(extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("TOOLRUN_") && !["PORT", "HOST", "LOG_LEVEL"].includes(name))
      env[name] = value;
  }
  return { ...env, ...extra };
}

/** `[command, ...args]` for Node with `nodeFlags` running `script`, under `taskset -c cpu` when a cpu is given. */
function nodeCommand(
  script: string,
  args: readonly string[],
  cpu: number | null,
  nodeFlags: readonly string[],
): [string, string[]] {
  const taskset = cpu === null ? null : findExecutable("taskset");
  const nodeArgs = [...nodeFlags, script, ...args];
  if (taskset === null) return [process.execPath, nodeArgs];
  return [taskset, ["-c", String(cpu), process.execPath, ...nodeArgs]];
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `toolrun args` (this checkout's, or the one `bin` names) and collects its output. */
export function runToolrun(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  bin = TOOLRUN_BIN,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: cleanEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerHandle {
  readonly pid: number;
  readonly url: string;
  readonly logFile: string;
  log(): string;
  /** SIGTERM, then SIGKILL after 15 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly script: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cpu: number | null;
  readonly logFile: string;
  /** The line that carries the URL once the server listens. */
  readonly ready: RegExp;
  /** Node flags, for a variant of the server. */
  readonly nodeFlags?: readonly string[];
  readonly timeoutMs?: number;
}

/**
 * One of the bench's own servers (`bench/baseline-server.ts`, `bench/upstream-server.ts`): no
 * arguments or environment, its log in `dir`, ready when it prints "<name> listening on URL".
 */
export function startScriptServer(
  script: string,
  name: string,
  cpu: number | null,
  dir: string,
): Promise<ServerHandle> {
  return startServer({
    script,
    args: [],
    env: {},
    cpu,
    logFile: join(dir, `${name}.log`),
    ready: new RegExp(`${name} listening on (http://\\S+)`),
  });
}

export function startServer(options: StartOptions): Promise<ServerHandle> {
  const fd = openSync(options.logFile, "w");
  const [command, args] = nodeCommand(options.script, options.args, options.cpu, options.nodeFlags ?? []);
  const child = spawn(command, args, { env: cleanEnv(options.env), stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const log = () => readFileSync(options.logFile, "utf8");
  return new Promise((resolve, reject) => {
    let exited = false;
    const poll = setInterval(() => {
      const match = options.ready.exec(log());
      if (match?.[1] === undefined || child.pid === undefined) return;
      clearInterval(poll);
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({ pid: child.pid, url: match[1], logFile: options.logFile, log, stop: () => stopChild(child) });
    }, 50);
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill("SIGKILL");
      reject(new Error(`server did not start in time:\n${log()}`));
    }, options.timeoutMs ?? 20_000);
    child.once("exit", (code) => {
      exited = true;
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log()}`));
    });
    child.once("error", (error) => {
      if (!exited) reject(error);
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Resident set size of a process in KiB, from /proc; null where /proc is not there. */
export function rssKiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] === undefined ? null : Number(match[1]);
  } catch {
    return null;
  }
}

/** Pins this process (every thread) to one CPU; false when taskset is missing or refuses. */
export function pinSelf(cpu: number): Promise<boolean> {
  const taskset = findExecutable("taskset");
  if (taskset === null) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(taskset, ["-a", "-p", "-c", String(cpu), String(process.pid)], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
}
