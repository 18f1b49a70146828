/**
 * `toolrun serve`: loadConfig -> createDeps -> buildApp -> listen, then the first-start bootstrap
 * key, the periodic jobs (housekeeping.ts), and a close that drains.
 */
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { createBootstrapKey } from "./core/admin/actions.ts";
import { createWebhookDeliverer } from "./core/admin/webhook-delivery.ts";
import type { Observer } from "./core/call/observer.ts";
import { creditAlertSettings } from "./core/kernel/credit-alerts.ts";
import { periodOf } from "./core/kernel/credits.ts";
import { createBilling, createDeps, type Deps, loadConfiguredTools, openTelemetry } from "./deps.ts";
import { jobs, startHousekeeping } from "./housekeeping.ts";
import { createMetrics } from "./http/metrics.ts";
import { BackendUnavailableError } from "./ports/errors.ts";
import { databaseError, listenError } from "./startup.ts";
import { logBackends } from "./startup-log.ts";

const LOG_FLUSH_MS = 200;

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly deps: Deps;
  readonly url: string;
  /** Stops taking requests, waits for those in flight (at most `shutdownTimeoutMs`), then closes. */
  close(): Promise<void>;
  /** Writes what is still buffered of the log, for a process about to exit at once. */
  flushLog(): void;
}

export interface StartOptions {
  readonly migrate: boolean;
  /** Where the human lines go (the first key's banner, the listening line): stderr by default. */
  readonly err?: (line: string) => void;
}

export async function startServer(
  config: Config,
  options: StartOptions = { migrate: true },
): Promise<RunningServer> {
  const err = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const metrics = createMetrics();
  const deps = await openStore(config, options.migrate, metrics);
  const log = logOutput();
  const app = buildApp(deps, {
    logger: {
      level: config.logLevel,
      redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" },
      stream: log.destination,
    },
    metrics: { metrics, token: config.metricsToken },
    requestTimeoutMs: config.requestTimeoutMs,
    oauth: config.oauth,
    signin: config.signin,
    billing: createBilling(config),
    trustProxy: config.trustProxy,
  });
  const stop = async () => {
    await app.close();
    await deps.close();
    log.flush();
  };
  let unreachable: BackendUnavailableError | null;
  try {
    unreachable = await logBackends(app.log, config, deps);
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await stop();
    throw listenError(config, error);
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  // Only once the port is ours: a server that cannot listen never mints a key.
  if (unreachable === null)
    await bootstrapKey(config, deps, err).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
  const webhooks = createWebhookDeliverer({
    store: deps.store,
    upstream: deps.upstream,
    now: deps.now,
    scheduleMs: config.webhookRetryScheduleMs,
    log: app.log,
  });
  const housekeeping = startHousekeeping(jobs(config, { ...deps, webhooks }, app.log), app.log);

  err(
    `toolrun listening on ${url} (database: ${config.database.kind}${config.redisUrl ? ", rate limits: redis" : ""})`,
  );
  err(`console: ${url}/ (open it in a browser; paste an API key there to run tools)`);
  if (config.oauth)
    err(`MCP sign-in (OAuth): on, issuer ${config.oauth.issuer}, resource ${config.oauth.resource}`);
  else if (config.oauthOff) err(`MCP sign-in (OAuth): off: ${config.oauthOff}`);

  return {
    app,
    deps,
    url,
    flushLog: log.flush,
    async close() {
      const closing = Date.now();
      // The deliveries in flight are aborted and their claims freed (due again at once), beside the drain.
      const jobsStopped = housekeeping.stop();
      // Requests in flight may finish; new ones get 503 meanwhile. Past the bound, their
      // connections are closed (a call cut off there is refunded by the next sweep of any instance).
      const cutOff = setTimeout(() => {
        app.log.warn(
          { shutdownTimeoutMs: config.shutdownTimeoutMs },
          "requests still in flight at the shutdown bound: closing their connections",
        );
        app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      try {
        await app.close();
      } finally {
        clearTimeout(cutOff);
        await jobsStopped;
        // The jobs running here get what is left of the bound; the rest end failed, released here.
        const jobs = await deps.jobs.drain(Math.max(0, config.shutdownTimeoutMs - (Date.now() - closing)));
        if (jobs.stopped > 0)
          app.log.warn(
            { ...jobs, shutdownTimeoutMs: config.shutdownTimeoutMs },
            "jobs still running at the shutdown bound: stopped (they end failed, their credits released)",
          );
        await deps.close();
        log.flush();
      }
    },
  };
}

/** The configured store, its schema applied where this process applies it, checked writable on SQLite. */
async function openStore(config: Config, migrate: boolean, observer: Observer): Promise<Deps> {
  // The tools first: a bad module stops start-up before anything is opened.
  const telemetry = await openTelemetry(config);
  const tools = await loadConfiguredTools(config, { telemetry });
  let deps: Deps;
  try {
    deps = await createDeps(config, tools, { observer, ...(telemetry && { telemetry }) });
  } catch (error) {
    throw databaseError(config, "cannot open the database", error);
  }
  try {
    if (migrate || config.database.kind === "sqlite") {
      await deps.store.migrate().catch((error: unknown) => {
        throw databaseError(config, "cannot apply the schema", error);
      });
    }
    if (config.database.kind === "sqlite") {
      const writes = await deps.store.probeWrite().catch((error: unknown) => {
        throw databaseError(config, "cannot probe the database", error);
      });
      if (writes === "read_only")
        throw databaseError(
          config,
          "the database can be read but not written",
          new Error("attempt to write a readonly database"),
        );
    }
    await configureAlerts(config, deps);
  } catch (error) {
    await deps.close();
    throw error;
  }
  return deps;
}

/**
 * The configuration's alert thresholds and plans' allowances, which the database's triggers read.
 * Skipped while the database is down or not migrated (`serve --no-migrate` still starts): the
 * ones recorded last hold until the next start.
 */
async function configureAlerts(config: Config, deps: Deps): Promise<void> {
  try {
    if (!(await deps.store.isMigrated())) return;
    await deps.store.configureCreditAlerts(creditAlertSettings(config.settings), periodOf(deps.now()).id);
  } catch (error) {
    if (!(error instanceof BackendUnavailableError))
      throw databaseError(config, "cannot record the alert thresholds", error);
  }
}

/**
 * stdout, written from a buffer off the event loop, so a slow disk or a full pipe on stdout does
 * not stall requests; under load, lines leave 8 KiB at a time (one write and one thread hand-off
 * for some twenty-five lines), and at most LOG_FLUSH_MS late when traffic is light. pino writes
 * what is left synchronously when the process exits.
 */
function logOutput() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8192 });
  const flusher = setInterval(() => destination.flush(), LOG_FLUSH_MS);
  flusher.unref();
  return {
    destination,
    flush() {
      clearInterval(flusher);
      destination.flushSync();
    },
  };
}

const NO_KEYS_YET =
  "No API keys yet. Create the first with `toolrun keys create --plan free --name NAME` (it prints the key once).";

/**
 * On the first start with an empty store, the `bootstrap` key, printed once. Only the embedded
 * quickstart mints one: on PostgreSQL the instances' logs are shared and kept, so a key printed
 * there would be a live secret in them; the operator makes the first with `toolrun keys create`.
 */
async function bootstrapKey(config: Config, deps: Deps, err: (line: string) => void): Promise<void> {
  try {
    // countKeys first: a started store with keys never takes the insert's lock.
    if ((await deps.store.isMigrated()) && (await deps.store.countKeys()) === 0) {
      if (config.database.kind !== "sqlite") return err(NO_KEYS_YET);
      const created = await createBootstrapKey(deps.store, config.settings);
      if (created) err(bootstrapMessage(config, created.key));
    }
  } catch (error) {
    // `serve --no-migrate` with the database down still starts: /readyz reports it, requests
    // answer 503 backend_unavailable, and the pool connects once the database is back.
    if (!(error instanceof BackendUnavailableError)) throw error;
  }
}

function bootstrapMessage(config: Config, key: string): string {
  return [
    "",
    "Created the first API key (plan: free, name: bootstrap). It is shown only this once:",
    "",
    `  ${key}`,
    "",
    "Try it:",
    "",
    `  curl -s ${config.publicUrl}/v1/tool/retaining-wall-pressure-calculator \\`,
    `    -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`,
    `    -d '{"height": 5, "unitWeight": 18, "frictionAngle": 30, "surcharge": 10}'`,
    "",
    `Or open the console, ${config.publicUrl}/, and paste the key there.`,
    "",
    "More keys, from the toolrun checkout: npx toolrun keys create --plan builder --name my-app",
    "",
  ].join("\n");
}
