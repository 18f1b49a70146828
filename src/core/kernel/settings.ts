/**
 * What the core needs to know of the operator's configuration: plans, per-tool settings, metering.
 * Built by src/config.ts from the environment and the optional JSON file.
 */
import type { CreditAlerts } from "../../ports/store.ts";

export interface Plan {
  readonly id: string;
  readonly label: string;
  /** Requests per minute. */
  readonly rpm: number;
  readonly monthlyCredits: number;
  /** Per-call minimum charge. */
  readonly minCredits: number;
  /**
   * Most jobs an account on the plan may have queued or running at once, over every instance;
   * DEFAULT_MAX_CONCURRENT_JOBS when not said.
   */
  readonly maxConcurrentJobs?: number;
}

/** How many jobs a plan that does not say may run at once. */
export const DEFAULT_MAX_CONCURRENT_JOBS = 1;

export interface ToolSettings {
  readonly weight?: number;
  readonly maxBodyBytes?: number;
  readonly enabled?: boolean;
  readonly api?: boolean;
  /** Most calls a key on the `free` plan may make of this tool each month. */
  readonly freeTierMonthlyCalls?: number;
}

export interface ServiceSettings {
  readonly plans: Readonly<Record<string, Plan>>;
  readonly tools: Readonly<Record<string, ToolSettings>>;
  readonly metering: boolean;
  readonly keyPrefix: string;
  /** The fixed prefix of admin keys (`TOOLRUN_ADMIN_KEY_PREFIX`). */
  readonly adminKeyPrefix: string;
  readonly docsUrl: string;
  /** Browser origins allowed to call the MCP endpoint (DNS-rebinding protection). */
  readonly allowedOrigins: readonly string[];
  /** How long an idempotency key's answer is kept (`TOOLRUN_IDEMPOTENCY_TTL_S`). */
  readonly idempotencyTtlS: number;
  /** The base of the links the service gives (`TOOLRUN_PUBLIC_URL`, no trailing slash): a capture's URL. */
  readonly publicUrl: string;
  /** How long a capture catches requests (`TOOLRUN_CAPTURE_TTL_S`). */
  readonly captureTtlS: number;
  /** Requests per minute each admin key may make of the admin API (`TOOLRUN_ADMIN_RPM`). */
  readonly adminRpm: number;
  /** The longest a synchronous call of a tool that may run as a job runs (`TOOLRUN_SYNC_TIMEOUT_S`). */
  readonly syncTimeoutS: number;
  /** How long an ended job is kept (`TOOLRUN_JOB_TTL_S`). */
  readonly jobTtlS: number;
  /** The thresholds of `credits.threshold` for accounts without their own (`alerts` in TOOLRUN_CONFIG). */
  readonly alerts: CreditAlerts;
}

export const DEFAULT_PLANS: Readonly<Record<string, Plan>> = {
  free: {
    id: "free",
    label: "Free member",
    rpm: 60,
    monthlyCredits: 1000,
    minCredits: 2,
    maxConcurrentJobs: 1,
  },
  builder: {
    id: "builder",
    label: "Builder",
    rpm: 300,
    monthlyCredits: 100_000,
    minCredits: 1,
    maxConcurrentJobs: 5,
  },
};

/**
 * The plan of the first-start key, the one `freeTierMonthlyCalls` applies to, and the one a key
 * whose plan was removed from the configuration falls back to.
 */
export const FREE_PLAN_ID = "free";

/**
 * What the operator set up (the configuration, the tools) cannot be used: one line per problem,
 * every problem at once, printable as is. ConfigError and ToolLoadError are its two kinds.
 */
export class SetupProblemsError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join("\n"));
    this.problems = problems;
  }
}
