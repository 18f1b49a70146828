/**
 * `toolrun serve`: starts the service and stops it on SIGINT or SIGTERM, letting requests in
 * flight finish within TOOLRUN_SHUTDOWN_TIMEOUT_MS. A second signal stops it at once.
 */
import type { Command } from "commander";
import { startServer } from "../server.ts";
import type { CliContext } from "./main.ts";

/** Past the drain, the process exits even if a stray handle would keep it alive. */
const EXIT_GRACE_MS = 2000;

export function registerServeCommand(program: Command, cli: CliContext): void {
  program
    .command("serve")
    .description("run the HTTP API and the MCP endpoint (npm start runs this)")
    .option("--no-migrate", "leave the PostgreSQL schema to `toolrun migrate` (SQLite always applies it)")
    .action(async (options: { migrate: boolean }) => {
      const config = cli.config();
      const server = await startServer(config, { migrate: options.migrate });
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once("SIGINT", () => resolve("SIGINT"));
        process.once("SIGTERM", () => resolve("SIGTERM"));
      });
      server.app.log.info(
        { signal, shutdownTimeoutMs: config.shutdownTimeoutMs },
        `${signal}: stopping; requests in flight have ${config.shutdownTimeoutMs} ms to finish`,
      );
      const again = () => {
        server.app.log.warn("second signal: stopping now");
        server.flushLog();
        process.exit(1);
      };
      process.once("SIGINT", again);
      process.once("SIGTERM", again);
      await server.close();
      setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_GRACE_MS).unref();
    });
}
