/**
 * The environment as one table: each variable declared once, with its default, what it accepts
 * (bounds and unit for numbers) and the line the docs give it. `loadConfig(env)` reads every
 * variable through its declaration and returns the whole configuration, or throws a ConfigError
 * naming every bad variable at once, so an operator fixes them in one go. The variable table of
 * docs/configuration.md is rendered from this one (config-docs.ts, `npm run docs:config`); the
 * JSON file `TOOLRUN_CONFIG` names is read by config-file.ts.
 *
 * A small reader of our own rather than a JSON Schema through ajv: every value arrives as a
 * string, and ajv's type coercion accepts numbers this refuses (`1e3`, `0x10`), while each
 * refusal must say, in the operator's terms, what the variable accepts; a few checks span
 * variables (the public URL's default, the two key prefixes, OAuth) and are plain code below.
 */
import { isIP } from "node:net";
import { readConfigFile } from "./config-file.ts";
import type { MemberSettings, SignupMode } from "./core/admin/members.ts";
import type { Pack } from "./core/billing/packs.ts";
import { type ServiceSettings, SetupProblemsError } from "./core/kernel/settings.ts";
import {
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
  parseRetrySchedule,
} from "./core/kernel/webhook-events.ts";
import {
  DEFAULT_ACCESS_TOKEN_TTL_S,
  DEFAULT_REGISTRATIONS_PER_HOUR,
  isLoopbackHost,
  type OAuthSettings,
  oauthSettings,
} from "./core/oauth/settings.ts";
import { type ComputeLimits, DEFAULT_COMPUTE_LIMITS } from "./ports/compute-offload.ts";
import {
  DEFAULT_BACKEND_TIMEOUT_MS,
  DEFAULT_CALL_ABANDON_S,
  DEFAULT_DATABASE_SCHEMA,
  DEFAULT_POOL_SIZE,
  DEFAULT_REDIS_PREFIX,
} from "./ports/defaults.ts";

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
  /** The delays before each retry of a failed webhook delivery, in milliseconds. */
  readonly webhookRetryScheduleMs: readonly number[];
  /** How long finished webhook deliveries and their events are kept, in seconds. */
  readonly webhookRetentionS: number;
  /** Members' sign-in with OpenID Connect; null when off (the TOOLRUN_SIGNIN_* variables unset). */
  readonly signin: SigninConfig | null;
  /** Selling credits with Stripe Checkout; null when off (the TOOLRUN_STRIPE_* secrets unset). */
  readonly billing: BillingConfig | null;
}

/** Stripe Checkout and the packs it sells. */
export interface BillingConfig {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** null: Stripe's own API. */
  readonly apiBase: string | null;
  readonly packs: readonly Pack[];
}

/** The console's OpenID Connect relying party, and who may sign up. */
export interface SigninConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** `{TOOLRUN_PUBLIC_URL}/signin/callback`. */
  readonly redirectUri: string;
  /** The public URL is https: the session cookie is `Secure` and named `__Host-…`. */
  readonly secure: boolean;
  readonly members: MemberSettings;
}

/** Why the configuration cannot be used: every bad variable and file member, one line each. */
export class ConfigError extends SetupProblemsError {
  override readonly name = "ConfigError";
}

type Env = Readonly<Record<string, string | undefined>>;

/** Why a variable's value is refused: each text follows the variable's name in a problem line. */
class Refusal {
  readonly reasons: readonly string[];
  constructor(reasons: readonly string[]) {
    this.reasons = reasons;
  }
}

/** One environment variable, as loadConfig reads it and the docs describe it. */
export interface Variable<T> {
  /** The value when the variable is unset or blank. */
  readonly default: T;
  /** The default as the docs show it (Markdown). */
  readonly shown: string;
  /** What a value must be, worded to follow "must be" in a refusal and shown in the docs. */
  readonly accepts: string;
  /** What it does, one line of Markdown for the docs' table. */
  readonly doc: string;
  /** The value of a set variable (trimmed, not blank), or why it is refused. */
  parse(raw: string): T | Refusal;
}

interface Declared<T> {
  readonly default: T;
  /** Where the default is not shown as itself: computed at start-up, or unset. */
  readonly shown?: string;
  readonly accepts: string;
  readonly doc: string;
  /** A secret is never repeated in its refusal. */
  readonly secret?: boolean;
}

/** A variable refused, when `convert` gives undefined, with `must be <accepts>, got "<value>"`. */
function declare<T>(declared: Declared<T>, convert: (raw: string) => T | undefined): Variable<T> {
  const { secret, ...rest } = declared;
  return {
    ...rest,
    shown: declared.shown ?? (declared.default == null ? "unset" : `\`${declared.default}\``),
    parse(raw) {
      const value = convert(raw);
      if (value !== undefined) return value;
      return new Refusal([`must be ${declared.accepts}${secret ? "" : `, got "${raw}"`}`]);
    },
  };
}

/** A whole number from `min` to `max`; seconds are said as such, other units in parentheses. */
function integer(spec: {
  default: number;
  min: number;
  max: number;
  unit?: string;
  doc: string;
}): Variable<number> {
  const { min, max, unit } = spec;
  const accepts =
    unit === "seconds"
      ? `whole seconds from ${min} to ${max}`
      : `an integer from ${min} to ${max}${unit === undefined ? "" : ` (${unit})`}`;
  return declare({ default: spec.default, accepts, doc: spec.doc }, (raw) => parseInteger(raw, min, max));
}

/** A string matching `pattern`. */
function text<T extends string | null | undefined>(
  declared: Declared<T>,
  pattern: RegExp | ((raw: string) => boolean) = () => true,
): Variable<string | T> {
  const matches = typeof pattern === "function" ? pattern : (raw: string) => pattern.test(raw);
  return declare<string | T>(declared, (raw) => (matches(raw) ? raw : undefined));
}

/** `on` or `off` (`true` and `false` too, in any case), as true or false. */
function onOff<T extends boolean | undefined>(declared: Omit<Declared<T>, "accepts">): Variable<boolean | T> {
  const words: Readonly<Record<string, boolean>> = { on: true, true: true, off: false, false: false };
  return declare<boolean | T>(
    { shown: `\`${declared.default ? "on" : "off"}\``, ...declared, accepts: '"on" or "off"' },
    (raw) => words[raw.toLowerCase()],
  );
}

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const KEY_PREFIX = /^(?=.{1,32}$)[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$/;
const KEY_PREFIX_ACCEPTS =
  "letters and digits, optionally joined by single underscores (at most 32 characters)";
const ORIGINS_ACCEPTS = "a comma-separated list of origins like https://app.example.com";

/**
 * Every variable toolrun reads, in the order the docs list them and refusals are reported. A
 * `TOOLRUN_*` variable not declared here is probably a typo, and warned about.
 */
export const VARIABLES = {
  HOST: text(
    {
      default: "127.0.0.1",
      accepts: "an IP address or a host name such as 0.0.0.0 or localhost",
      doc: "address to listen on (`0.0.0.0` for every interface)",
    },
    (raw) => isIP(raw) !== 0 || HOSTNAME.test(raw),
  ),
  PORT: integer({ default: 8080, min: 0, max: 65535, doc: "port to listen on (`0` picks a free one)" }),
  TOOLRUN_DATABASE: {
    default: "./data/toolrun.db",
    shown: "`./data/toolrun.db`",
    accepts: 'a SQLite file path, ":memory:" or a postgres:// URL',
    doc: "where keys, balances, switches and the usage ledger live: a SQLite file path (relative to the current directory, for the server and the CLI alike), `:memory:`, or a `postgres://` URL with a host",
    parse: parseDatabase,
  } satisfies Variable<string>,
  TOOLRUN_DATABASE_SCHEMA: text(
    {
      default: DEFAULT_DATABASE_SCHEMA,
      accepts: "a plain PostgreSQL identifier",
      doc: "PostgreSQL only: the schema holding toolrun's tables",
    },
    /^[A-Za-z_][A-Za-z0-9_]{0,62}$/,
  ),
  TOOLRUN_DATABASE_POOL_SIZE: integer({
    default: DEFAULT_POOL_SIZE,
    min: 1,
    max: 1000,
    doc: "PostgreSQL only: connections per instance",
  }),
  TOOLRUN_REDIS_URL: text(
    {
      default: null,
      accepts: "a redis:// or rediss:// URL",
      doc: "where set, rate-limit windows live in Redis, shared by every instance",
    },
    /^rediss?:\/\//,
  ),
  TOOLRUN_REDIS_PREFIX: text(
    {
      default: DEFAULT_REDIS_PREFIX,
      accepts: "1 to 64 of A-Z a-z 0-9 : _ . -",
      doc: "prefix of every Redis key, so deployments can share one Redis",
    },
    /^[A-Za-z0-9:_.-]{1,64}$/,
  ),
  TOOLRUN_METERING: onOff({
    default: true,
    doc: "`off` disables credits: `credits_used` 0, `credits_remaining` null, never 402",
  }),
  TOOLRUN_PUBLIC_URL: declare<string | undefined>(
    {
      default: undefined,
      shown: "`http://HOST:PORT`",
      accepts: "an http(s) URL",
      doc: "base of the links the service prints; problem `type`s are `{TOOLRUN_PUBLIC_URL}/docs/errors/{code}`",
    },
    (raw) => (isHttpUrl(raw) ? raw.replace(/\/+$/, "") : undefined),
  ),
  TOOLRUN_KEY_PREFIX: text(
    {
      default: "tr_live",
      accepts: KEY_PREFIX_ACCEPTS,
      doc: "the fixed live prefix of keys (`tr_live_<32 base62>`)",
    },
    KEY_PREFIX,
  ),
  TOOLRUN_ADMIN_KEY_PREFIX: text(
    {
      default: "tr_admin",
      accepts: KEY_PREFIX_ACCEPTS,
      doc: "the fixed prefix of admin keys (`tr_admin_<32 base62>`), the only keys the admin API (`/admin/v1`) accepts; made by `toolrun admin-keys create`. Must differ from `TOOLRUN_KEY_PREFIX`",
    },
    KEY_PREFIX,
  ),
  TOOLRUN_ALLOWED_ORIGINS: {
    default: [],
    shown: "the public URL's origin",
    accepts: ORIGINS_ACCEPTS,
    doc: "browser origins allowed to call `/mcp` besides the public URL's (DNS-rebinding protection); requests without `Origin` are always allowed, and a server listening on loopback also allows pages on `localhost`, `127.0.0.1` and `[::1]` (any port)",
    parse: parseOrigins,
  } satisfies Variable<readonly string[]>,
  TOOLRUN_DB_TIMEOUT_MS: integer({
    default: DEFAULT_BACKEND_TIMEOUT_MS,
    min: 50,
    max: 600_000,
    unit: "milliseconds",
    doc: "longest wait for any one database or Redis operation of a request: PostgreSQL's `statement_timeout` and the client's own wait for an answer, the wait for a pooled connection, TCP keepalive; the Redis command timeout; how long a SQLite write waits, off the event loop, for another process's lock. Past it the request answers 503 `backend_unavailable` with `Retry-After` (see [errors](errors.md#when-a-backend-stalls))",
  }),
  TOOLRUN_REQUEST_TIMEOUT_MS: integer({
    default: 30_000,
    min: 100,
    max: 3_600_000,
    unit: "milliseconds",
    doc: "how long a request's headers, and the whole request with its body, may take to arrive; a slower client gets 408 `request_timeout` and its connection is closed",
  }),
  TOOLRUN_IDEMPOTENCY_TTL_S: integer({
    default: 86_400,
    min: 1,
    max: 31_536_000,
    unit: "seconds",
    doc: "how long the answer of a call sent with an `Idempotency-Key` is kept for its retries; then it is purged and the key may be used again ([retries](retries.md))",
  }),
  TOOLRUN_CAPTURE_TTL_S: integer({
    default: 86_400,
    min: 60,
    max: 2_592_000,
    unit: "seconds",
    doc: 'how long a capture (`POST /v1/captures`, the inspector page\'s "Catch a real delivery") catches requests at its `/hooks/{token}` address; then it answers 404, and the capture with what it caught is purged ([captures](captures.md))',
  }),
  TOOLRUN_SYNC_TIMEOUT_S: integer({
    default: 120,
    min: 1,
    max: 3_600,
    unit: "seconds",
    doc: "the longest a synchronous call of a tool that may run as a job (its `jobs` is `optional` or `required`) runs before it fails, refunded, whatever the tool's `timeoutMs`; a job of it may run up to its `timeoutMs`, an hour at most ([jobs](jobs.md))",
  }),
  TOOLRUN_JOB_TTL_S: integer({
    default: 86_400,
    min: 60,
    max: 31_536_000,
    unit: "seconds",
    doc: "how long a job is kept, with its result or problem, after it ended; then `GET /v1/jobs/{id}` answers 404 `job_not_found` ([jobs](jobs.md))",
  }),
  TOOLRUN_CALL_ABANDON_S: integer({
    default: DEFAULT_CALL_ABANDON_S,
    min: 1,
    max: 86_400,
    unit: "seconds",
    doc: "a call still pending this many seconds after it began belongs to a process that died (or lost its database) and is released by the sweep every instance runs (every 30 s, or every half of this when that is shorter): its credits go back and its `Idempotency-Key` is free again; if that process comes back and tries to charge it, the call answers 503 and stays refunded, except a call of a tool with effects outside whose tool succeeded: its effect happened, so it is charged again (unless a retry with its `Idempotency-Key` took the key over meanwhile). Pending calls are the reservations of [tools with effects outside](tools/writing-a-tool.md#effects) and of the calls sent with an `Idempotency-Key`, on either store; a job's is kept while its lease holds, however long it runs ([jobs](jobs.md#for-operators)). A tool with effects outside must have a `timeoutMs` below this, or start-up stops naming it",
  }),
  TOOLRUN_COMPUTE_PER_KEY: integer({
    default: DEFAULT_COMPUTE_LIMITS.perOwner,
    min: 1,
    max: 1_000,
    unit: "calls",
    doc: "how many large calls (a request body of 64 KiB or more, computed on the worker thread one at a time, keys taking turns) one key may have waiting or running; one more answers 429 `too_many_large_calls` ([errors](errors.md#large-calls))",
  }),
  TOOLRUN_COMPUTE_QUEUE: integer({
    default: DEFAULT_COMPUTE_LIMITS.queuedTasks,
    min: 0,
    max: 100_000,
    unit: "calls",
    doc: "how many large calls may wait for the worker, every key's together; one more answers 503 `server_busy`",
  }),
  TOOLRUN_COMPUTE_QUEUE_BYTES: integer({
    default: DEFAULT_COMPUTE_LIMITS.queuedBytes,
    min: 0,
    max: 2 ** 40,
    unit: "bytes",
    doc: "how many bytes of request bodies those waiting calls may hold together (the default is 32 MiB); a call that would take them past it answers 503 `server_busy`",
  }),
  TOOLRUN_ADMIN_RPM: integer({
    default: 600,
    min: 1,
    max: 1_000_000,
    unit: "requests per minute",
    doc: "requests per minute each admin key may make of the admin API, in fixed windows aligned to the minute like customer keys'; one more answers 429 `rate_limited` with `Retry-After`, and every admin answer carries `RateLimit-Policy` and `RateLimit` ([operations](operations.md#admin-api-and-audit-log)). Enough for scripts that provision keys in bulk; a leaked admin key still cannot hammer the store",
  }),
  TOOLRUN_OAUTH: onOff({
    // Unset is not `on`: where the public URL cannot carry OAuth, unset leaves it off and `on` is refused.
    default: undefined,
    shown: "`on`",
    doc: "MCP sign-in with OAuth 2.1 ([MCP](mcp.md#sign-in-with-oauth)): toolrun is the authorization server of `{TOOLRUN_PUBLIC_URL}/mcp`, and the consent page asks for the API key that will pay. `off` turns it off (API keys only). It needs `TOOLRUN_PUBLIC_URL` to be https, or http on a loopback host (`localhost`, `127.0.0.1`, `[::1]`), with no path: with another URL it stays off and `serve` says why at start; `on` with such a URL is a configuration error. API keys work on `/mcp` whether it is on or off; `/v1` takes keys only",
  }),
  TOOLRUN_OAUTH_ACCESS_TTL_S: integer({
    default: DEFAULT_ACCESS_TOKEN_TTL_S,
    min: 60,
    max: 86_400,
    unit: "seconds",
    doc: "how long an OAuth access token lives; an expired one gets the 401 that sends its client to refresh it. Refresh tokens rotate on every use and last 30 days each; an authorization lasts a year unless revoked",
  }),
  TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR: integer({
    default: DEFAULT_REGISTRATIONS_PER_HOUR,
    min: 1,
    max: 1_000_000,
    unit: "clients an address may register an hour",
    doc: "OAuth clients one address may register by dynamic registration in an hour, counted in the rate limiter's windows (shared by instances); one more answers 429 `rate_limited` with `Retry-After` and stores nothing. Behind a reverse proxy, set `TOOLRUN_TRUST_PROXY` so the address is the client's, not the proxy's",
  }),
  TOOLRUN_SIGNIN_ISSUER: declare<string | null>(
    {
      default: null,
      accepts: "an https URL (http only on a loopback host)",
      doc: "members' sign-in to the console ([sign-in](signin.md)): the OpenID Connect issuer (`https://accounts.google.com`, `https://gitlab.com`, a Keycloak realm's URL). On only with `TOOLRUN_SIGNIN_CLIENT_ID` and `TOOLRUN_SIGNIN_CLIENT_SECRET`; the provider's redirect URL is `{TOOLRUN_PUBLIC_URL}/signin/callback`. Unset, there is no sign-in and the console is as it always was",
    },
    (raw) => (isSigninIssuer(raw) ? raw.replace(/\/+$/, "") : undefined),
  ),
  TOOLRUN_SIGNIN_CLIENT_ID: text(
    {
      default: null,
      accepts: "a client id (letters, digits and `._~:@/+=-`)",
      doc: "the client id the OpenID provider gave toolrun",
    },
    /^[A-Za-z0-9._~:@/+=-]{1,512}$/,
  ),
  TOOLRUN_SIGNIN_CLIENT_SECRET: text(
    {
      default: null,
      accepts: "at least 8 printable characters without spaces",
      doc: "the client secret the OpenID provider gave toolrun (sent to its token endpoint only)",
      secret: true,
    },
    /^[\x21-\x7e]{8,}$/,
  ),
  TOOLRUN_SIGNUP: declare<SignupMode>(
    {
      default: "open",
      accepts: '"open" or "invite"',
      doc: "who may sign in: `open`, anyone the provider vouches for (a first sign-in makes a member and a new account on `TOOLRUN_SIGNUP_PLAN`); `invite`, only the emails an operator invited into an account (`toolrun accounts invite`), verified by the provider",
    },
    (raw) => (raw === "open" || raw === "invite" ? raw : undefined),
  ),
  TOOLRUN_SIGNUP_PLAN: text({
    default: "free",
    accepts: "a plan's id",
    doc: "the plan of the account an open sign-up makes; a plan of the configuration file (or a built-in one)",
  }),
  TOOLRUN_STRIPE_SECRET_KEY: text(
    {
      default: null,
      accepts: "a Stripe secret or restricted key (sk_… or rk_…)",
      doc: "selling credits with Stripe Checkout ([billing](billing.md)): the API key toolrun creates Checkout Sessions with. On only with `TOOLRUN_STRIPE_WEBHOOK_SECRET` and the configuration file's `billing.packs`; unset, nothing is sold and the billing routes answer 404 `billing_disabled`",
      secret: true,
    },
    /^(sk|rk)_[A-Za-z0-9_]{8,}$/,
  ),
  TOOLRUN_STRIPE_WEBHOOK_SECRET: text(
    {
      default: null,
      accepts: "a Stripe webhook signing secret (whsec_…)",
      doc: "the signing secret of the Stripe webhook endpoint `{TOOLRUN_PUBLIC_URL}/v1/billing/stripe/webhook`: a delivery whose `Stripe-Signature` does not verify under it is refused and grants nothing",
      secret: true,
    },
    /^whsec_[A-Za-z0-9+/=_]{8,}$/,
  ),
  TOOLRUN_STRIPE_API_BASE: declare<string | null>(
    {
      default: null,
      shown: "`https://api.stripe.com`",
      accepts: "an http or https URL without a path",
      doc: "where the Stripe API is; only tests against a local fake of Stripe change it",
    },
    (raw) => (isHttpUrl(raw) && new URL(raw).pathname === "/" ? new URL(raw).origin : undefined),
  ),
  TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH: declare(
    {
      default: false,
      accepts: '"true" or "false"',
      doc: "`true` lets the server fetch client ID metadata documents from loopback and private addresses (for tests and a private network); otherwise only public https hosts are fetched, checked on the connected socket",
    },
    (raw) => ({ true: true, false: false })[raw.toLowerCase()],
  ),
  TOOLRUN_CONFIG: text({
    default: undefined,
    accepts: "a file path",
    doc: "path of the JSON file [below](#the-json-file-toolrun_config)",
  }),
  TOOLRUN_TOOLS: text({
    default: undefined,
    accepts: "files, folders and package names",
    doc: "your own tool modules: files, folders and package names separated by the platform's path delimiter ([below](#your-own-tools-toolrun_tools))",
  }),
  LOG_LEVEL: declare(
    {
      default: "info",
      accepts: `one of ${LOG_LEVELS.join(", ")}`,
      doc: 'pino level. stdout carries only JSON log lines; at `info`, one line per request ("request completed", with the method, path, request id, status, time taken, and the key\'s id, tool, credits charged and problem code: [operations.md](operations.md#logs)). Lines are buffered off the event loop and written 8 KiB at a time, at least every 200 ms, and all at a graceful stop; a `SIGKILL` loses at most the lines of the last 200 ms',
    },
    (raw) => LOG_LEVELS.find((level) => level === raw.toLowerCase()),
  ),
  TOOLRUN_METRICS_TOKEN: text(
    {
      default: null,
      accepts: "at least 16 printable characters without spaces",
      doc: "where set, `GET /metrics` needs `Authorization: Bearer <token>`; unset, it is open to whoever reaches the port ([operations.md](operations.md#metrics))",
      secret: true,
    },
    /^[\x21-\x7e]{16,}$/,
  ),
  TOOLRUN_TRUST_PROXY: declare<boolean | number | readonly string[]>(
    {
      default: false,
      accepts:
        '"false", "true", a number of hops from 1 to 32, or addresses and CIDR ranges separated by commas',
      doc: "whose `X-Forwarded-For` names the client, for the OAuth registration limit and the request log's `remoteAddress`: `false`, no one's (the connecting address counts); a number, that many proxies in front; addresses and CIDR ranges (`10.0.0.1,172.16.0.0/12`), those proxies; `true`, anyone's, only behind a proxy that overwrites the header. A client's own `X-Forwarded-For` is never believed unless a trusted proxy passed it on",
    },
    parseTrustProxy,
  ),
  TOOLRUN_WEBHOOK_RETRY_SCHEDULE: declare(
    {
      default: DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
      shown: `\`${DEFAULT_WEBHOOK_RETRY_SCHEDULE}\``,
      accepts:
        "durations separated by commas, each a whole number and ms, s, m, h or d, at most 7 days each, at most 50 of them",
      doc: "the delays before each retry of a webhook delivery that failed (any answer but a 2xx or a 410, a timeout of 15 s, no connection), each with up to 10 % of jitter and no shorter than the receiver's `Retry-After`; once they are spent the delivery is given up (`failed` in its endpoint's deliveries). [operations](operations.md#webhooks)",
    },
    parseRetrySchedule,
  ),
  TOOLRUN_WEBHOOK_RETENTION_S: integer({
    default: 2_592_000,
    min: 3600,
    max: 31_536_000,
    unit: "seconds",
    doc: "how long a webhook delivery delivered or given up is kept after its event was written, with its attempts, and its event once no delivery refers to it; then the purge every instance runs (every 10 minutes) removes them. A delivery still pending, being retried, is kept with its event whatever its age ([operations](operations.md#webhooks))",
  }),
  TOOLRUN_SHUTDOWN_TIMEOUT_MS: integer({
    default: 10_000,
    min: 0,
    max: 600_000,
    unit: "milliseconds",
    doc: "on SIGTERM, SIGINT or SIGHUP (or an uncaught exception), how long requests in flight, then the jobs running in the instance, may take to finish before their connections are closed and the jobs stopped (ended failed, released) ([operations.md](operations.md#signals-and-shutdown))",
  }),
} as const;

type Name = keyof typeof VARIABLES;
type ValueOf<N extends Name> =
  | (typeof VARIABLES)[N]["default"]
  | Exclude<ReturnType<(typeof VARIABLES)[N]["parse"]>, Refusal>;

/** The defaults code outside loadConfig falls back to. */
export const DEFAULT_DATABASE_PATH = VARIABLES.TOOLRUN_DATABASE.default;
export const DEFAULT_REQUEST_TIMEOUT_MS = VARIABLES.TOOLRUN_REQUEST_TIMEOUT_MS.default;
export const DEFAULT_IDEMPOTENCY_TTL_S = VARIABLES.TOOLRUN_IDEMPOTENCY_TTL_S.default;
export const DEFAULT_ADMIN_RPM = VARIABLES.TOOLRUN_ADMIN_RPM.default;
export const DEFAULT_CAPTURE_TTL_S = VARIABLES.TOOLRUN_CAPTURE_TTL_S.default;
export const DEFAULT_SYNC_TIMEOUT_S = VARIABLES.TOOLRUN_SYNC_TIMEOUT_S.default;
export const DEFAULT_JOB_TTL_S = VARIABLES.TOOLRUN_JOB_TTL_S.default;

/** Every variable toolrun reads. */
export const KNOWN_VARIABLES: readonly string[] = Object.keys(VARIABLES);

/** Read by the client and the README's examples, not by the service: known names all the same. */
const CLIENT_VARIABLES: readonly string[] = ["TOOLRUN_KEY", "TOOLRUN_URL"];

/** A warning for each `TOOLRUN_*` variable toolrun does not read, naming the closest known one. */
export function unknownVariableWarnings(env: Env): string[] {
  return Object.keys(env)
    .filter(
      (name) =>
        name.startsWith("TOOLRUN_") && !KNOWN_VARIABLES.includes(name) && !CLIENT_VARIABLES.includes(name),
    )
    .sort()
    .map((name) => {
      const closest = closestName(name, KNOWN_VARIABLES);
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

/** What loadConfig reads a variable with: its value, or its default once its refusal is noted. */
type Read = <N extends Name>(name: N) => ValueOf<N>;

/**
 * The configuration, or a ConfigError naming every bad variable and file member, in the table's
 * order. The tools named by `TOOLRUN_TOOLS` and the file are checked when they are loaded
 * (`toolSources`), the slugs of the file's `tools` included, since a module's tool is known only then.
 */
export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const read: Read = (name) => {
    const variable: Variable<ValueOf<typeof name>> = VARIABLES[name];
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") return variable.default;
    const value = variable.parse(raw);
    if (!(value instanceof Refusal)) return value;
    for (const reason of value.reasons) problems.push(`${name} ${reason}`);
    return variable.default;
  };

  const host = read("HOST");
  const port = read("PORT");
  const publicUrl = read("TOOLRUN_PUBLIC_URL") ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const keyPrefix = read("TOOLRUN_KEY_PREFIX");
  const adminKeyPrefix = read("TOOLRUN_ADMIN_KEY_PREFIX");
  if (adminKeyPrefix === keyPrefix)
    problems.push(
      `TOOLRUN_ADMIN_KEY_PREFIX must differ from TOOLRUN_KEY_PREFIX, so an admin key never passes for a customer key; both are "${keyPrefix}"`,
    );
  const configPath = read("TOOLRUN_CONFIG");
  const file = readConfigFile(configPath, problems);
  const oauth = readOAuth(read, publicUrl, problems);
  const config: Config = {
    host,
    port,
    database: databaseConfig(read("TOOLRUN_DATABASE"), read),
    redisUrl: read("TOOLRUN_REDIS_URL"),
    redisPrefix: read("TOOLRUN_REDIS_PREFIX"),
    publicUrl,
    logLevel: read("LOG_LEVEL"),
    dbTimeoutMs: read("TOOLRUN_DB_TIMEOUT_MS"),
    requestTimeoutMs: read("TOOLRUN_REQUEST_TIMEOUT_MS"),
    callAbandonS: read("TOOLRUN_CALL_ABANDON_S"),
    metricsToken: read("TOOLRUN_METRICS_TOKEN"),
    shutdownTimeoutMs: read("TOOLRUN_SHUTDOWN_TIMEOUT_MS"),
    compute: {
      perOwner: read("TOOLRUN_COMPUTE_PER_KEY"),
      queuedTasks: read("TOOLRUN_COMPUTE_QUEUE"),
      queuedBytes: read("TOOLRUN_COMPUTE_QUEUE_BYTES"),
    },
    settings: {
      plans: file.plans,
      tools: file.tools,
      metering: read("TOOLRUN_METERING"),
      keyPrefix,
      adminKeyPrefix,
      docsUrl: `${publicUrl}/docs`,
      allowedOrigins: [...new Set([new URL(publicUrl).origin, ...read("TOOLRUN_ALLOWED_ORIGINS")])],
      idempotencyTtlS: read("TOOLRUN_IDEMPOTENCY_TTL_S"),
      publicUrl,
      captureTtlS: read("TOOLRUN_CAPTURE_TTL_S"),
      adminRpm: read("TOOLRUN_ADMIN_RPM"),
      syncTimeoutS: read("TOOLRUN_SYNC_TIMEOUT_S"),
      jobTtlS: read("TOOLRUN_JOB_TTL_S"),
      alerts: file.alerts,
    },
    toolSources: {
      modules: read("TOOLRUN_TOOLS"),
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
    trustProxy: read("TOOLRUN_TRUST_PROXY"),
    webhookRetryScheduleMs: read("TOOLRUN_WEBHOOK_RETRY_SCHEDULE"),
    webhookRetentionS: read("TOOLRUN_WEBHOOK_RETENTION_S"),
    signin: readSignin(read, publicUrl, file.plans, problems),
    billing: readBilling(read, file.packs, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems.sort((a, b) => rank(a) - rank(b)));
  return config;
}

/** Where the variable a problem line begins with stands in the table (stable sort keeps the rest). */
function rank(problem: string): number {
  return KNOWN_VARIABLES.indexOf(/^[A-Z_]+/.exec(problem)?.[0] ?? "");
}

/** A SQLite path as it is; a PostgreSQL URL with its pool size and schema, read only then. */
function databaseConfig(raw: string, read: Read): DatabaseConfig {
  if (!isPostgresUrl(raw)) return { kind: "sqlite", path: raw };
  return {
    kind: "postgres",
    url: raw,
    poolSize: read("TOOLRUN_DATABASE_POOL_SIZE"),
    schema: read("TOOLRUN_DATABASE_SCHEMA"),
  };
}

function isPostgresUrl(raw: string): boolean {
  return /^postgres(ql)?:\/\//.test(raw);
}

function parseDatabase(raw: string): string | Refusal {
  if (isPostgresUrl(raw)) {
    if (!URL.canParse(raw)) return new Refusal(["is not a valid postgres:// URL (check its escaping)"]);
    if (new URL(raw).hostname === "")
      return new Refusal([
        "is a postgres:// URL without a host, like postgres://user@db.example:5432/toolrun",
      ]);
    return raw;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    return new Refusal([`must be ${VARIABLES.TOOLRUN_DATABASE.accepts}, got a ${raw.split(":")[0]}: URL`]);
  return raw;
}

/** Each origin that is not one refused on its own line. */
function parseOrigins(raw: string): readonly string[] | Refusal {
  const origins = raw
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const bad = origins.filter(
    (origin) => !isHttpUrl(origin) || new URL(origin).origin !== origin.replace(/\/+$/, ""),
  );
  if (bad.length > 0) return new Refusal(bad.map((origin) => `must be ${ORIGINS_ACCEPTS}, got "${origin}"`));
  return origins.map((origin) => new URL(origin).origin);
}

/** `false`, `true`, a hop count, or a comma-separated list of addresses and CIDR ranges. */
function parseTrustProxy(raw: string): boolean | number | readonly string[] | undefined {
  if (raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  const hops = parseInteger(raw, 1, 32);
  if (hops !== undefined) return hops;
  const entries = raw.split(",").map((entry) => entry.trim());
  return entries.every(isAddressOrRange) ? entries : undefined;
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
  read: Read,
  publicUrl: string,
  problems: string[],
): { settings: OAuthSettings | null; off: string | null } {
  const on = read("TOOLRUN_OAUTH");
  const options = {
    accessTokenTtlS: read("TOOLRUN_OAUTH_ACCESS_TTL_S"),
    registrationsPerHour: read("TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR"),
    allowPrivateFetch: read("TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH"),
  };
  if (on === false) return { settings: null, off: null };
  const url = new URL(publicUrl);
  const unfit =
    url.pathname !== "/"
      ? `TOOLRUN_PUBLIC_URL has a path ("${url.pathname}"); OAuth needs the service at the root of its origin`
      : url.protocol === "http:" && !isLoopbackHost(url.hostname)
        ? `TOOLRUN_PUBLIC_URL is "${publicUrl}": OAuth needs https, or http on a loopback host (localhost, 127.0.0.1, [::1])`
        : null;
  if (unfit === null) return { settings: oauthSettings(publicUrl, options), off: null };
  if (on === true) problems.push(`TOOLRUN_OAUTH is on, but ${unfit}`);
  return { settings: null, off: `${unfit}; MCP sign-in with OAuth is off (API keys work as always)` };
}

/**
 * Sign-in is on when its three variables are set; one or two of them is a mistake. Its redirect is
 * on the public URL, which must be https (or loopback http) for the provider to send the code back.
 */
function readSignin(
  read: Read,
  publicUrl: string,
  plans: Readonly<Record<string, unknown>>,
  problems: string[],
): SigninConfig | null {
  const refusedBefore = problems.length;
  const issuer = read("TOOLRUN_SIGNIN_ISSUER");
  const clientId = read("TOOLRUN_SIGNIN_CLIENT_ID");
  const clientSecret = read("TOOLRUN_SIGNIN_CLIENT_SECRET");
  const signup = read("TOOLRUN_SIGNUP");
  const signupPlan = read("TOOLRUN_SIGNUP_PLAN");
  const set = [issuer, clientId, clientSecret].filter((v) => v !== null).length;
  if (set === 0) return null;
  if (issuer === null || clientId === null || clientSecret === null) {
    // A refused one was named already.
    if (problems.length === refusedBefore)
      problems.push(
        "TOOLRUN_SIGNIN_ISSUER, TOOLRUN_SIGNIN_CLIENT_ID and TOOLRUN_SIGNIN_CLIENT_SECRET must be set together (sign-in is off with none of them)",
      );
    return null;
  }
  const url = new URL(publicUrl);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    problems.push(
      `TOOLRUN_SIGNIN_ISSUER is set, but TOOLRUN_PUBLIC_URL is "${publicUrl}": sign-in needs https, or http on a loopback host`,
    );
  if (!Object.hasOwn(plans, signupPlan))
    problems.push(
      `TOOLRUN_SIGNUP_PLAN must be a plan's id (${Object.keys(plans).join(", ")}), got "${signupPlan}"`,
    );
  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri: `${publicUrl}/signin/callback`,
    secure: url.protocol === "https:",
    members: { signup, signupPlan },
  };
}

/**
 * Billing is on when both Stripe secrets are set; one without the other is a mistake, and so is
 * selling with no pack to sell. Packs without the secrets are kept for later and sell nothing.
 */
function readBilling(read: Read, packs: readonly Pack[], problems: string[]): BillingConfig | null {
  const refusedBefore = problems.length;
  const secretKey = read("TOOLRUN_STRIPE_SECRET_KEY");
  const webhookSecret = read("TOOLRUN_STRIPE_WEBHOOK_SECRET");
  const apiBase = read("TOOLRUN_STRIPE_API_BASE");
  if (secretKey === null && webhookSecret === null) return null;
  if (secretKey === null || webhookSecret === null) {
    if (problems.length === refusedBefore)
      problems.push(
        "TOOLRUN_STRIPE_SECRET_KEY and TOOLRUN_STRIPE_WEBHOOK_SECRET must be set together (billing is off with neither)",
      );
    return null;
  }
  if (packs.length === 0)
    problems.push(
      "TOOLRUN_STRIPE_SECRET_KEY is set, but TOOLRUN_CONFIG has no billing.packs: list the packs to sell (docs/billing.md)",
    );
  return { secretKey, webhookSecret, apiBase, packs };
}

function isSigninIssuer(raw: string): boolean {
  if (!isHttpUrl(raw)) return false;
  const url = new URL(raw);
  return url.protocol === "https:" || isLoopbackHost(url.hostname);
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
