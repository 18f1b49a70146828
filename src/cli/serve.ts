/**
 * `toolrun serve`: starts the service and stops it on SIGINT, SIGTERM or SIGHUP (or when the npm
 * that started it exits), letting requests in flight finish within TOOLRUN_SHUTDOWN_TIMEOUT_MS. A
 * second signal stops it at once.
 *
 * An operator's module cannot end the calls of others with a bug of its own: a promise rejection
 * nobody handled is logged (naming the tool whose run made it) and the service goes on; an
 * uncaught exception (a module's timer that throws) leaves the process in a state nobody planned
 * for, so it stops as on SIGTERM, draining the calls in flight, and exits 1 with a log line
 * naming the cause.
 */

import type { Command } from "commander";
import { runningTool } from "../core/tools/running-tool.ts";
import { startServer } from "../server.ts";
import type { CliContext } from "./context.ts";

/** Past the drain, the process exits even if a stray handle would keep it alive. */
const EXIT_GRACE_MS = 2000;
const PARENT_CHECK_MS = 500;
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export function registerServeCommand(program: Command, cli: CliContext): void {
  program
    .command("serve")
    .description("run the HTTP API and the MCP endpoint (npm start runs this)")
    .option("--no-migrate", "leave the PostgreSQL schema to `toolrun migrate` (SQLite always applies it)")
    .action(async (options: { migrate: boolean }) => {
      const config = cli.config();
      // Listening for signals before starting: one sent while the server starts (a supervisor's
      // stop, an operator's Ctrl-C) stops it once it has started, rather than Node's default
      // action killing it half-way, between a key minted and the line that shows it, say.
      let server: Awaited<ReturnType<typeof startServer>> | undefined;
      const stop = Promise.withResolvers<string>();
      let stopping = false;
      const begin = (reason: string): boolean => {
        if (stopping) return false;
        stopping = true;
        stop.resolve(reason);
        return true;
      };
      const onSignal = (signal: NodeJS.Signals) => {
        if (begin(signal)) return;
        if (server) {
          server.app.log.warn("second signal: stopping now");
          server.flushLog();
        } else {
          process.stderr.write("toolrun: second signal: stopping now\n");
        }
        process.exit(1);
      };
      for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
      const report = (level: "error" | "fatal", error: unknown, message: string) => {
        const tool = runningTool();
        const line = tool === undefined ? message : `${message} (in a run of the tool ${tool})`;
        if (server) server.app.log[level]({ err: error, ...(tool !== undefined && { tool }) }, line);
        else
          process.stderr.write(`toolrun: ${line}: ${error instanceof Error ? error.stack : String(error)}\n`);
      };
      process.on("unhandledRejection", (reason) => {
        report("error", reason, "a promise rejection nobody handled; the service goes on");
      });
      process.on("uncaughtException", (error) => {
        process.exitCode = 1;
        report(
          "fatal",
          error,
          stopping ? "uncaught exception while stopping" : "uncaught exception: stopping, then exiting 1",
        );
        begin("uncaught exception");
      });
      // Before starting: npm may be gone by the time the server listens.
      if (cli.env.npm_command !== undefined) stopWithParent(process.ppid, () => begin("npm exited"));
      server = await startServer(config, { migrate: options.migrate });
      const signal = await stop.promise;
      server.app.log.info(
        { signal, shutdownTimeoutMs: config.shutdownTimeoutMs },
        `${signal}: stopping; requests in flight have ${config.shutdownTimeoutMs} ms to finish`,
      );
      await server.close();
      setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_GRACE_MS).unref();
    });
}

/**
 * `npx toolrun serve` runs us under `npm exec` through a shell that does not pass npm's signals
 * on: when npm goes (SIGTERM, Ctrl-C in another terminal, its supervisor stopping it), we are
 * re-parented, and stop as if signalled. Only under npm: a server started with nohup outlives
 * its shell on purpose.
 */
function stopWithParent(parent: number, stop: () => void): void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, PARENT_CHECK_MS);
  timer.unref();
}
