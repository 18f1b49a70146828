/**
 * One schema for the environment. `loadConfig(env)` returns the whole configuration or throws a
 * ConfigError naming every bad variable at once, so an operator fixes them in one go.
 */
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { DEFAULT_IDEMPOTENCY_TTL_S } from "./core/call/idempotency.ts";
import {
  DEFAULT_ADMIN_RPM,
  DEFAULT_PLANS,
  type Plan,
  type ServiceSettings,
  SetupProblemsError,
  type ToolSettings,
} from "./core/kernel/settings.ts";
import {
  DEFAULT_ACCESS_TOKEN_TTL_S,
  DEFAULT_REGISTRATIONS_PER_HOUR,
  isLoopbackHost,
  type OAuthSettings,
  oauthSettings,
} from "./core/oauth/settings.ts";
import { type ComputeLimits, DEFAULT_COMPUTE_LIMITS } from "./ports/compute-offload.ts";
import { MAX_ALLOWANCE } from "./ports/store.ts";

export type DatabaseConfig =
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "postgres"; readonly url: string; readonly poolSize: number; readonly schema: string };

/**
 * Where the tools beyond the built-in ones come from, as the loader reads them
 * (core/tools/loader.ts): `TOOLRUN_TOOLS`, and the configuration file's `httpTools` and
 * `tools.<slug>.secrets`, unchecked here: the loader checks them with the tools they belong to.
 */
export interface ToolSources {
  /** `TOOLRUN_TOOLS`: module files, folders and package names. */
  readonly modules: string | undefined;
  /** The configuration file's `httpTools`, with the file's path for the messages. */
  readonly httpTools: { readonly declarations: unknown; readonly configPath: string } | undefined;
  /** `tools.<slug>.secrets` by slug, values unexpanded. */
  readonly secrets: Readonly<Record<string, unknown>>;
  /** The slugs the configuration file's `tools` names: each must be a tool once all are loaded. */
  readonly configured: readonly string[];
  /** Where `${NAME}` is read from. */
  readonly env: Env;
  /** Where relative paths and package names of `TOOLRUN_TOOLS` are resolved from. */
  readonly cwd: string;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseConfig;
  readonly redisUrl: string | null;
  /** Prepended to every Redis key, so several deployments can share one Redis. */
  readonly redisPrefix: string;
  readonly publicUrl: string;
  readonly logLevel: string;
  /** Longest wait for one database or Redis operation of a request (TOOLRUN_DB_TIMEOUT_MS). */
  readonly dbTimeoutMs: number;
  /** How long a request's headers, and the whole request, may take to arrive (TOOLRUN_REQUEST_TIMEOUT_MS). */
  readonly requestTimeoutMs: number;
  /** Seconds after which a call still pending belongs to a dead process and is refunded. */
  readonly callAbandonS: number;
  /** Where set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null;
  /** How long a stopping server waits for requests in flight before it closes their connections. */
  readonly shutdownTimeoutMs: number;
  /** What may wait for the worker that computes large calls (TOOLRUN_COMPUTE_*). */
  readonly compute: ComputeLimits;
  readonly settings: ServiceSettings;
  readonly toolSources: ToolSources;
  /** OAuth for the MCP endpoint; null when off (TOOLRUN_OAUTH=off, or no URL it can work on). */
  readonly oauth: OAuthSettings | null;
  /** Why OAuth is off although TOOLRUN_OAUTH did not say so; null otherwise. */
  readonly oauthOff: string | null;
  /**
   * Which proxies' `X-Forwarded-For` names the client (TOOLRUN_TRUST_PROXY): false, none; a number,
   * that many hops; addresses or CIDR ranges, those proxies; true, any (only behind a proxy that
   * overwrites the header).
   */
  readonly trustProxy: boolean | number | readonly string[];
}

/** Why the configuration cannot be used: every bad variable and file member, one line each. */
export class ConfigError extends SetupProblemsError {
  override readonly name = "ConfigError";
}

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const PLAN_FIELDS = ["rpm", "monthlyCredits", "minCredits", "label"] as const;
const TOOL_FIELDS = ["weight", "maxBodyBytes", "enabled", "api", "freeTierMonthlyCalls", "secrets"] as const;
const FILE_MEMBERS = ["plans", "tools", "httpTools"];

type Env = Readonly<Record<string, string | undefined>>;

/** Every variable toolrun reads; a `TOOLRUN_*` variable not listed here is probably a typo. */
export const KNOWN_VARIABLES = [
  "HOST",
  "PORT",
  "LOG_LEVEL",
  "TOOLRUN_DATABASE",
  "TOOLRUN_DATABASE_SCHEMA",
  "TOOLRUN_DATABASE_POOL_SIZE",
  "TOOLRUN_REDIS_URL",
  "TOOLRUN_REDIS_PREFIX",
  "TOOLRUN_METERING",
  "TOOLRUN_PUBLIC_URL",
  "TOOLRUN_KEY_PREFIX",
  "TOOLRUN_ADMIN_KEY_PREFIX",
  "TOOLRUN_ALLOWED_ORIGINS",
  "TOOLRUN_CONFIG",
  "TOOLRUN_TOOLS",
  "TOOLRUN_METRICS_TOKEN",
  "TOOLRUN_SHUTDOWN_TIMEOUT_MS",
  "TOOLRUN_DB_TIMEOUT_MS",
  "TOOLRUN_REQUEST_TIMEOUT_MS",
  "TOOLRUN_IDEMPOTENCY_TTL_S",
  "TOOLRUN_CALL_ABANDON_S",
  "TOOLRUN_COMPUTE_PER_KEY",
  "TOOLRUN_COMPUTE_QUEUE",
  "TOOLRUN_COMPUTE_QUEUE_BYTES",
  "TOOLRUN_ADMIN_RPM",
  "TOOLRUN_OAUTH",
  "TOOLRUN_OAUTH_ACCESS_TTL_S",
  "TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH",
  "TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR",
  "TOOLRUN_TRUST_PROXY",
] as const;

type KnownVariable = (typeof KNOWN_VARIABLES)[number];

/** Read by the client and the README's examples, not by the service: known names all the same. */
const CLIENT_VARIABLES = ["TOOLRUN_KEY", "TOOLRUN_URL"] as const;

/** A warning for each `TOOLRUN_*` variable toolrun does not read, naming the closest known one. */
export function unknownVariableWarnings(env: Env): string[] {
  const known: readonly string[] = KNOWN_VARIABLES;
  const client: readonly string[] = CLIENT_VARIABLES;
  return Object.keys(env)
    .filter((name) => name.startsWith("TOOLRUN_") && !known.includes(name) && !client.includes(name))
    .sort()
    .map((name) => {
      const closest = closestName(name, known);
      return `${name} is not a toolrun variable and is ignored${closest ? `; did you mean ${closest}?` : ""}`;
    });
}

/** The known name nearest to `name` by edit distance, when it is near enough to be a typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The configuration, or a ConfigError naming every bad variable and file member. The tools named
 * by `TOOLRUN_TOOLS` and the file are checked when they are loaded (`toolSources`), the slugs of
 * the file's `tools` included, since a module's tool is known only then.
 */
export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  // Typed so that a variable read here and missing from the list above does not compile.
  const value = (name: KnownVariable): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  };

  const host = value("HOST") ?? "127.0.0.1";
  const hostOk = isIP(host) !== 0 || HOSTNAME.test(host);
  if (!hostOk)
    problems.push(
      `HOST must be an IP address or a host name such as 0.0.0.0 or localhost, got "${env.HOST}"`,
    );
  const port = parseInteger(value("PORT") ?? "8080", 0, 65535);
  if (port === undefined) problems.push(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);

  const database = parseDatabase(value("TOOLRUN_DATABASE") ?? "./data/toolrun.db", value, problems);

  const redisUrl = value("TOOLRUN_REDIS_URL") ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push(`TOOLRUN_REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  }

  const redisPrefix = value("TOOLRUN_REDIS_PREFIX") ?? "toolrun:";
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisPrefix)) {
    problems.push(`TOOLRUN_REDIS_PREFIX must be 1 to 64 of A-Z a-z 0-9 : _ . -, got "${redisPrefix}"`);
  }

  const meteringRaw = (value("TOOLRUN_METERING") ?? "on").toLowerCase();
  const metering = meteringRaw === "on" || meteringRaw === "true";
  if (!["on", "off", "true", "false"].includes(meteringRaw)) {
    problems.push(`TOOLRUN_METERING must be "on" or "off", got "${env.TOOLRUN_METERING}"`);
  }

  const publicUrl = (
    value("TOOLRUN_PUBLIC_URL") ??
    `http://${hostOk ? (host.includes(":") ? `[${host}]` : host) : "127.0.0.1"}:${port ?? 8080}`
  ).replace(/\/+$/, "");
  if (!isHttpUrl(publicUrl)) problems.push(`TOOLRUN_PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);

  const keyPrefix = value("TOOLRUN_KEY_PREFIX") ?? "tr_live";
  const adminKeyPrefix = value("TOOLRUN_ADMIN_KEY_PREFIX") ?? "tr_admin";
  for (const [name, prefix] of [
    ["TOOLRUN_KEY_PREFIX", keyPrefix],
    ["TOOLRUN_ADMIN_KEY_PREFIX", adminKeyPrefix],
  ] as const) {
    if (!/^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$/.test(prefix) || prefix.length > 32) {
      problems.push(
        `${name} must be letters and digits, optionally joined by single underscores (at most 32 characters), got "${prefix}"`,
      );
    }
  }
  if (adminKeyPrefix === keyPrefix) {
    problems.push(
      `TOOLRUN_ADMIN_KEY_PREFIX must differ from TOOLRUN_KEY_PREFIX, so an admin key never passes for a customer key; both are "${keyPrefix}"`,
    );
  }

  const logLevel = (value("LOG_LEVEL") ?? "info").toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${env.LOG_LEVEL}"`);

  const allowedOrigins = [new URL(isHttpUrl(publicUrl) ? publicUrl : "http://127.0.0.1").origin];
  for (const origin of (value("TOOLRUN_ALLOWED_ORIGINS") ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)) {
    if (isHttpUrl(origin) && new URL(origin).origin === origin.replace(/\/+$/, ""))
      allowedOrigins.push(new URL(origin).origin);
    else
      problems.push(
        `TOOLRUN_ALLOWED_ORIGINS must be a comma-separated list of origins like https://app.example.com, got "${origin}"`,
      );
  }

  const dbTimeoutMs = parseInteger(value("TOOLRUN_DB_TIMEOUT_MS") ?? "5000", 50, 600_000);
  if (dbTimeoutMs === undefined)
    problems.push(
      `TOOLRUN_DB_TIMEOUT_MS must be an integer from 50 to 600000 (milliseconds), got "${env.TOOLRUN_DB_TIMEOUT_MS}"`,
    );
  const requestTimeoutMs = parseInteger(value("TOOLRUN_REQUEST_TIMEOUT_MS") ?? "30000", 100, 3_600_000);
  if (requestTimeoutMs === undefined)
    problems.push(
      `TOOLRUN_REQUEST_TIMEOUT_MS must be an integer from 100 to 3600000 (milliseconds), got "${env.TOOLRUN_REQUEST_TIMEOUT_MS}"`,
    );

  const ttlRaw = value("TOOLRUN_IDEMPOTENCY_TTL_S") ?? String(DEFAULT_IDEMPOTENCY_TTL_S);
  const idempotencyTtlS = parseInteger(ttlRaw, 1, 31_536_000);
  if (idempotencyTtlS === undefined)
    problems.push(`TOOLRUN_IDEMPOTENCY_TTL_S must be whole seconds from 1 to 31536000, got "${ttlRaw}"`);

  const abandonRaw = value("TOOLRUN_CALL_ABANDON_S") ?? "120";
  const callAbandonS = parseInteger(abandonRaw, 1, 86_400);
  if (callAbandonS === undefined)
    problems.push(`TOOLRUN_CALL_ABANDON_S must be whole seconds from 1 to 86400, got "${abandonRaw}"`);
  const metricsToken = value("TOOLRUN_METRICS_TOKEN") ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,}$/.test(metricsToken))
    problems.push("TOOLRUN_METRICS_TOKEN must be at least 16 printable characters without spaces");

  const shutdownRaw = value("TOOLRUN_SHUTDOWN_TIMEOUT_MS") ?? "10000";
  const shutdownTimeoutMs = parseInteger(shutdownRaw, 0, 600_000);
  if (shutdownTimeoutMs === undefined)
    problems.push(
      `TOOLRUN_SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 600000 (milliseconds), got "${shutdownRaw}"`,
    );

  const integer = (name: KnownVariable, fallback: number, min: number, max: number, unit: string) => {
    const raw = value(name) ?? String(fallback);
    const n = parseInteger(raw, min, max);
    if (n === undefined)
      problems.push(`${name} must be an integer from ${min} to ${max} (${unit}), got "${raw}"`);
    return n ?? fallback;
  };
  const compute: ComputeLimits = {
    perOwner: integer("TOOLRUN_COMPUTE_PER_KEY", DEFAULT_COMPUTE_LIMITS.perOwner, 1, 1_000, "calls"),
    queuedTasks: integer("TOOLRUN_COMPUTE_QUEUE", DEFAULT_COMPUTE_LIMITS.queuedTasks, 0, 100_000, "calls"),
    queuedBytes: integer(
      "TOOLRUN_COMPUTE_QUEUE_BYTES",
      DEFAULT_COMPUTE_LIMITS.queuedBytes,
      0,
      2 ** 40,
      "bytes",
    ),
  };
  const adminRpm = integer("TOOLRUN_ADMIN_RPM", DEFAULT_ADMIN_RPM, 1, 1_000_000, "requests per minute");

  const configPath = value("TOOLRUN_CONFIG");
  const file = readConfigFile(configPath, problems);
  const oauth = readOAuth(value, publicUrl, problems);
  const trustProxy = readTrustProxy(value("TOOLRUN_TRUST_PROXY"), problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    host,
    port: port ?? 8080,
    database,
    redisUrl,
    redisPrefix,
    publicUrl,
    logLevel,
    dbTimeoutMs: dbTimeoutMs ?? 5000,
    requestTimeoutMs: requestTimeoutMs ?? 30_000,
    callAbandonS: callAbandonS ?? 120,
    metricsToken,
    shutdownTimeoutMs: shutdownTimeoutMs ?? 10_000,
    compute,
    settings: {
      plans: file.plans,
      tools: file.tools,
      metering,
      keyPrefix,
      adminKeyPrefix,
      docsUrl: `${publicUrl}/docs`,
      allowedOrigins: [...new Set(allowedOrigins)],
      idempotencyTtlS: idempotencyTtlS ?? DEFAULT_IDEMPOTENCY_TTL_S,
      adminRpm,
    },
    toolSources: {
      modules: value("TOOLRUN_TOOLS"),
      httpTools:
        configPath === undefined || file.httpTools === undefined
          ? undefined
          : { declarations: file.httpTools, configPath },
      secrets: file.secrets,
      configured: Object.keys(file.tools),
      env,
      cwd: process.cwd(),
    },
    oauth: oauth.settings,
    oauthOff: oauth.off,
    trustProxy,
  };
}

/** `false` (the default), `true`, a hop count, or a comma-separated list of addresses and CIDR ranges. */
function readTrustProxy(raw: string | undefined, problems: string[]): Config["trustProxy"] {
  const text = (raw ?? "").trim();
  if (text === "" || text.toLowerCase() === "false") return false;
  if (text.toLowerCase() === "true") return true;
  const hops = parseInteger(text, 1, 32);
  if (hops !== undefined) return hops;
  const entries = text.split(",").map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length === 0) return entries;
  problems.push(
    `TOOLRUN_TRUST_PROXY must be "false", "true", a number of hops from 1 to 32, or addresses and CIDR ranges separated by commas, got "${raw}"`,
  );
  return false;
}

function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = parseInteger(prefix, 0, version === 4 ? 32 : 128);
  return bits !== undefined;
}

/**
 * OAuth is on by default, where it can work: the issuer (TOOLRUN_PUBLIC_URL) must be https, or
 * http on a loopback host (development, tests), and have no path. Unset TOOLRUN_OAUTH with a URL
 * that does not qualify leaves it off with a start-up note; TOOLRUN_OAUTH=on with one is an error.
 */
function readOAuth(
  value: (name: KnownVariable) => string | undefined,
  publicUrl: string,
  problems: string[],
): { settings: OAuthSettings | null; off: string | null } {
  const raw = (value("TOOLRUN_OAUTH") ?? "").toLowerCase();
  if (!["", "on", "off", "true", "false"].includes(raw))
    problems.push(`TOOLRUN_OAUTH must be "on" or "off", got "${value("TOOLRUN_OAUTH")}"`);
  const ttlRaw = value("TOOLRUN_OAUTH_ACCESS_TTL_S") ?? String(DEFAULT_ACCESS_TOKEN_TTL_S);
  const accessTokenTtlS = parseInteger(ttlRaw, 60, 86_400);
  if (accessTokenTtlS === undefined)
    problems.push(`TOOLRUN_OAUTH_ACCESS_TTL_S must be whole seconds from 60 to 86400, got "${ttlRaw}"`);
  const registrationsRaw =
    value("TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR") ?? String(DEFAULT_REGISTRATIONS_PER_HOUR);
  const registrationsPerHour = parseInteger(registrationsRaw, 1, 1_000_000);
  if (registrationsPerHour === undefined)
    problems.push(
      `TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR must be an integer from 1 to 1000000 (clients an address may register an hour), got "${registrationsRaw}"`,
    );
  const privateRaw = (value("TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH") ?? "false").toLowerCase();
  if (!["true", "false"].includes(privateRaw))
    problems.push(
      `TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH must be "true" or "false", got "${value("TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH")}"`,
    );
  if (raw === "off" || raw === "false" || !isHttpUrl(publicUrl)) return { settings: null, off: null };
  const url = new URL(publicUrl);
  const unfit =
    url.pathname !== "/"
      ? `TOOLRUN_PUBLIC_URL has a path ("${url.pathname}"); OAuth needs the service at the root of its origin`
      : url.protocol === "http:" && !isLoopbackHost(url.hostname)
        ? `TOOLRUN_PUBLIC_URL is "${publicUrl}": OAuth needs https, or http on a loopback host (localhost, 127.0.0.1, [::1])`
        : null;
  if (unfit !== null) {
    if (raw === "on" || raw === "true") problems.push(`TOOLRUN_OAUTH is on, but ${unfit}`);
    return { settings: null, off: `${unfit}; MCP sign-in with OAuth is off (API keys work as always)` };
  }
  return {
    settings: oauthSettings(publicUrl, {
      accessTokenTtlS: accessTokenTtlS ?? DEFAULT_ACCESS_TOKEN_TTL_S,
      allowPrivateFetch: privateRaw === "true",
      registrationsPerHour: registrationsPerHour ?? DEFAULT_REGISTRATIONS_PER_HOUR,
    }),
    off: null,
  };
}

function parseDatabase(
  raw: string,
  value: (name: KnownVariable) => string | undefined,
  problems: string[],
): DatabaseConfig {
  const poolRaw = value("TOOLRUN_DATABASE_POOL_SIZE") ?? "10";
  const poolSize = parseInteger(poolRaw, 1, 1000);
  if (/^postgres(ql)?:\/\//.test(raw)) {
    if (poolSize === undefined)
      problems.push(`TOOLRUN_DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "${poolRaw}"`);
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      problems.push("TOOLRUN_DATABASE is not a valid postgres:// URL (check its escaping)");
    }
    if (url !== undefined && url.hostname === "")
      problems.push(
        "TOOLRUN_DATABASE is a postgres:// URL without a host, like postgres://user@db.example:5432/toolrun",
      );
    const schema = value("TOOLRUN_DATABASE_SCHEMA") ?? "public";
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      problems.push(`TOOLRUN_DATABASE_SCHEMA must be a plain PostgreSQL identifier, got "${schema}"`);
    }
    return { kind: "postgres", url: raw, poolSize: poolSize ?? 10, schema };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    problems.push(
      `TOOLRUN_DATABASE must be a SQLite file path, ":memory:" or a postgres:// URL, got a ${raw.split(":")[0]}: URL`,
    );
  }
  return { kind: "sqlite", path: raw };
}

interface FileSettings {
  plans: Record<string, Plan>;
  tools: Record<string, ToolSettings>;
  /** `tools.<slug>.secrets`, unchecked. */
  secrets: Record<string, unknown>;
  /** `httpTools`, unchecked. */
  httpTools?: unknown;
}

function readConfigFile(path: string | undefined, problems: string[]): FileSettings {
  const settings: FileSettings = { plans: { ...DEFAULT_PLANS }, tools: {}, secrets: {} };
  if (path === undefined) return settings;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    problems.push(
      `TOOLRUN_CONFIG: cannot read ${path} as JSON (${error instanceof Error ? error.message : error})`,
    );
    return settings;
  }
  if (!isObject(parsed)) {
    problems.push(`TOOLRUN_CONFIG: ${path} must hold a JSON object`);
    return settings;
  }
  for (const key of Object.keys(parsed)) {
    if (!FILE_MEMBERS.includes(key))
      problems.push(`TOOLRUN_CONFIG: unknown member "${key}" (expected ${FILE_MEMBERS.join(", ")})`);
  }
  if (parsed.httpTools !== undefined) settings.httpTools = parsed.httpTools;
  if (parsed.plans !== undefined) {
    if (!isObject(parsed.plans)) problems.push("TOOLRUN_CONFIG: plans must be an object");
    else {
      for (const [id, raw] of Object.entries(parsed.plans)) {
        const plan = readPlan(
          id,
          raw,
          Object.hasOwn(settings.plans, id) ? settings.plans[id] : undefined,
          problems,
        );
        if (plan) settings.plans[id] = plan;
      }
    }
  }
  if (parsed.tools !== undefined) {
    if (!isObject(parsed.tools)) problems.push("TOOLRUN_CONFIG: tools must be an object");
    else {
      for (const [slug, raw] of Object.entries(parsed.tools)) {
        const tool = readTool(slug, raw, problems);
        if (tool) settings.tools[slug] = tool;
        if (isObject(raw) && raw.secrets !== undefined) settings.secrets[slug] = raw.secrets;
      }
    }
  }
  return settings;
}

function readPlan(id: string, raw: unknown, base: Plan | undefined, problems: string[]): Plan | undefined {
  const where = `TOOLRUN_CONFIG: plans.${id}`;
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(id)) {
    problems.push(`${where}: a plan id is lowercase letters, digits, - and _`);
    return undefined;
  }
  if (!isObject(raw)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!(PLAN_FIELDS as readonly string[]).includes(key)) problems.push(`${where}: unknown member "${key}"`);
  }
  const count = problems.length;
  const rpm = readCount(raw.rpm, `${where}.rpm`, 1, problems);
  const monthlyCredits = readCount(raw.monthlyCredits, `${where}.monthlyCredits`, 0, problems, MAX_ALLOWANCE);
  const minCredits = readCount(raw.minCredits, `${where}.minCredits`, 0, problems);
  if (raw.label !== undefined && typeof raw.label !== "string")
    problems.push(`${where}.label must be a string`);
  if (base === undefined && (rpm === undefined || monthlyCredits === undefined || minCredits === undefined)) {
    problems.push(`${where}: a new plan needs rpm, monthlyCredits and minCredits`);
  }
  if (problems.length > count || (base === undefined && (rpm ?? monthlyCredits ?? minCredits) === undefined))
    return undefined;
  return {
    id,
    label: typeof raw.label === "string" ? raw.label : (base?.label ?? id),
    rpm: rpm ?? base?.rpm ?? 0,
    monthlyCredits: monthlyCredits ?? base?.monthlyCredits ?? 0,
    minCredits: minCredits ?? base?.minCredits ?? 0,
  };
}

function readTool(slug: string, raw: unknown, problems: string[]): ToolSettings | undefined {
  const where = `TOOLRUN_CONFIG: tools.${slug}`;
  if (!isObject(raw)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!(TOOL_FIELDS as readonly string[]).includes(key)) problems.push(`${where}: unknown member "${key}"`);
  }
  const tool: { -readonly [K in keyof ToolSettings]: ToolSettings[K] } = {};
  const weight = readCount(raw.weight, `${where}.weight`, 0, problems);
  const maxBodyBytes = readCount(raw.maxBodyBytes, `${where}.maxBodyBytes`, 2, problems);
  const cap = readCount(raw.freeTierMonthlyCalls, `${where}.freeTierMonthlyCalls`, 0, problems);
  if (weight !== undefined) tool.weight = weight;
  if (maxBodyBytes !== undefined) tool.maxBodyBytes = maxBodyBytes;
  if (cap !== undefined) tool.freeTierMonthlyCalls = cap;
  for (const flag of ["enabled", "api"] as const) {
    if (raw[flag] === undefined) continue;
    if (typeof raw[flag] !== "boolean") problems.push(`${where}.${flag} must be true or false`);
    else tool[flag] = raw[flag];
  }
  return tool;
}

/** Every count is stored in 32-bit integer columns (PostgreSQL `integer`), so none may exceed this. */
export const MAX_COUNT = 2_147_483_647;

function readCount(
  raw: unknown,
  where: string,
  min: number,
  problems: string[],
  max = MAX_COUNT,
): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw < min || raw > max) {
    problems.push(`${where} must be an integer from ${min} to ${max}`);
    return undefined;
  }
  return raw;
}

function parseInteger(raw: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
