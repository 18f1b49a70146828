/**
 * Everything the core needs, passed in explicitly so tests can build it with any adapter.
 */

import type { ComputeOffload } from "../../ports/compute-offload.ts";
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import type { Store } from "../../ports/store.ts";
import type { Telemetry } from "../../ports/telemetry.ts";
import type { ServiceSettings } from "../kernel/settings.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { SwitchReader } from "../tools/switches.ts";
import type { KeyedCallsInFlight } from "./idempotency.ts";
import type { JobsInFlight } from "./jobs-in-flight.ts";
import type { Observer } from "./observer.ts";

export interface CoreDeps {
  readonly store: Store;
  readonly limiter: RateLimiter;
  readonly registry: ToolRegistry;
  readonly switches: SwitchReader;
  readonly settings: ServiceSettings;
  readonly keyPattern: RegExp;
  /** The form of an admin key (`settings.adminKeyPrefix`). */
  readonly adminKeyPattern: RegExp;
  readonly now: () => Date;
  readonly newCallId: () => string;
  /** The calls with an idempotency key running on this instance. */
  readonly keyedCalls: KeyedCallsInFlight;
  /** The jobs this instance runs, and the lease it holds on each. */
  readonly jobs: JobsInFlight;
  /** Hears how each metered call ended (the metrics); none in most tests. */
  readonly observer?: Observer;
  /** Traces, when they are on (the OpenTelemetry variables ask for them). */
  readonly telemetry?: Telemetry;
  /** Where the compute of large calls goes; none: every call computes on the main thread. */
  readonly offload?: ComputeOffload;
}
