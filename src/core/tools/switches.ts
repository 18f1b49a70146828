/**
 * The operator's switches (enabled, API surface) as every instance sees them: configuration
 * defaults overridden by the switches stored in the database, re-read every few seconds so a
 * `toolrun tools set` reaches all instances without a restart.
 */
import type { SwitchStore, ToolSwitch } from "../../ports/store.ts";
import type { RegisteredTool } from "./registry.ts";

export interface EffectiveSwitch {
  readonly enabled: boolean;
  readonly api: boolean;
}

export interface SwitchReader {
  of(tool: RegisteredTool): Promise<EffectiveSwitch>;
}

export function createSwitchReader(store: SwitchStore, now: () => number, ttlMs = 2000): SwitchReader {
  let cached: ReadonlyMap<string, ToolSwitch> | null = null;
  let readAt = 0;
  let pending: Promise<ReadonlyMap<string, ToolSwitch>> | null = null;

  async function current(): Promise<ReadonlyMap<string, ToolSwitch>> {
    if (cached !== null && now() - readAt < ttlMs) return cached;
    // Concurrent requests share one read instead of each hitting the database.
    pending ??= store.getSwitches().then(
      (switches) => {
        cached = switches;
        readAt = now();
        pending = null;
        return switches;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  }

  return {
    async of(tool) {
      const stored = (await current()).get(tool.slug);
      return { enabled: stored?.enabled ?? tool.enabledByDefault, api: stored?.api ?? tool.apiByDefault };
    },
  };
}
