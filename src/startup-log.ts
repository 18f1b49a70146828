/**
 * One log line per backend at start-up: where the data and the rate-limit windows live and
 * whether they answer, naming the variable to fix when one does not. The service starts anyway
 * (`/readyz` reports it, requests answer 503 backend_unavailable, and it recovers by itself).
 */
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.ts";
import type { Deps } from "./deps.ts";
import { BackendUnavailableError } from "./ports/errors.ts";
import { describeDatabase, reason, withoutPassword } from "./startup.ts";

const PING_TIMEOUT_MS = 2000;

/** Logs the database and the rate limiter; returns the database's failure when it is unreachable. */
export async function logBackends(
  log: FastifyBaseLogger,
  config: Config,
  deps: Deps,
): Promise<BackendUnavailableError | null> {
  const database = describeDatabase(config);
  let unreachable: BackendUnavailableError | null = null;
  try {
    await withTimeout(deps.store.ping());
    log.info(
      { backend: "database", kind: config.database.kind, database },
      `database: ${config.database.kind} at ${database}`,
    );
  } catch (error) {
    unreachable =
      error instanceof BackendUnavailableError ? error : new BackendUnavailableError("database", error);
    log.warn(
      { backend: "database", kind: config.database.kind, database, err: error },
      `database: cannot reach TOOLRUN_DATABASE=${database} (${reason(error)}); starting anyway, requests answer 503 until it is back`,
    );
  }

  const limiter =
    config.redisUrl !== null
      ? { kind: "redis", where: `TOOLRUN_REDIS_URL=${withoutPassword(config.redisUrl)}` }
      : config.database.kind === "postgres"
        ? { kind: "postgres", where: "the PostgreSQL database" }
        : { kind: "memory", where: "this process's memory" };
  if (limiter.kind === "memory") {
    log.info(
      { backend: "rate-limiter", kind: limiter.kind },
      `rate limits: in ${limiter.where} (one instance)`,
    );
    return unreachable;
  }
  try {
    await withTimeout(deps.limiter.ping());
    log.info(
      { backend: "rate-limiter", kind: limiter.kind },
      `rate limits: ${limiter.kind} at ${limiter.where}`,
    );
  } catch (error) {
    log.warn(
      { backend: "rate-limiter", kind: limiter.kind, err: error },
      `rate limits: cannot reach ${limiter.where} (${reason(error)}); starting anyway, requests answer 503 until it is back`,
    );
  }
  return unreachable;
}

function withTimeout(check: Promise<void>): Promise<void> {
  return Promise.race([
    check,
    new Promise<void>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS).unref(),
    ),
  ]);
}
