/**
 * `toolrun serve`: starts the service and closes it gracefully on SIGINT or SIGTERM.
 */
import type { Config } from "../config.ts";
import { startServer } from "../server.ts";
import { parse } from "./usage.ts";

export async function runServe(config: Config, args: readonly string[]): Promise<number> {
  const { values } = parse(args, { "no-migrate": { type: "boolean" } });
  const server = await startServer(config, { migrate: values["no-migrate"] !== true });
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      server.close().then(resolve, resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return 0;
}
