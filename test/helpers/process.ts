/**
 * Runs the real `toolrun` binary as a user would, on the Node that runs the tests.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/toolrun.js", import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  return runScript(BIN, args, { ...cleanEnv(), ...env });
}

/**
 * A new folder with a migrated SQLite database in it, made by `toolrun migrate` as an operator
 * does (the keys and tools commands never create a database). The caller removes `dir`.
 */
export async function migratedDatabase(
  prefix: string,
): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = { TOOLRUN_DATABASE: join(dir, "toolrun.db") };
  const migrated = await runCli(["migrate"], env);
  if (migrated.code !== 0) throw new Error(`toolrun migrate failed: ${migrated.stderr}`);
  return { dir, env };
}

/** Runs a Node script (a package's bin from node_modules, for one) on this Node, collecting its output. */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `toolrun serve` on a free port and resolves once it listens. */
export function startServerProcess(
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve", ...args], {
      env: { ...cleanEnv(), PORT: "0", LOG_LEVEL: "warn", ...env },
    });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${out}`));
    }, 30_000); // a start on a loaded two-core machine has taken over 15 s
    const onData = (d: Buffer) => {
      out += d;
      const match = /toolrun listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[1],
          output: () => out,
          stop: (signal = "SIGTERM") =>
            new Promise((done) => {
              if (child.exitCode !== null) return done(child.exitCode);
              child.once("exit", (code) => done(code));
              child.kill(signal);
            }),
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("TOOLRUN_") && name !== "PORT" && name !== "HOST")
      env[name] = value;
  }
  return env;
}
