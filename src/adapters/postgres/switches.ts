/**
 * SwitchStore on PostgreSQL: per-tool operator switches, merged member by member in one upsert
 * (NULL = not set), so concurrent `toolrun tools set` calls never lose each other's change.
 * Boundary: the `tool_switches` table only.
 */
import type { Pool } from "pg";
import type { SwitchStore, ToolSwitch } from "../../ports/store.ts";
import { audited } from "./audit.ts";
import { run, statement } from "./db.ts";

const ALL = statement("switch_all", "SELECT slug, enabled, api FROM tool_switches");
const MERGE = statement(
  "switch_merge",
  `INSERT INTO tool_switches (slug, enabled, api) VALUES ($1, $2, $3)
   ON CONFLICT (slug) DO UPDATE SET
     enabled = COALESCE(EXCLUDED.enabled, tool_switches.enabled),
     api = COALESCE(EXCLUDED.api, tool_switches.api)`,
);

interface SwitchRow {
  slug: string;
  enabled: boolean | null;
  api: boolean | null;
}

export function createSwitchStore(pool: Pool): SwitchStore {
  return {
    async getSwitches() {
      const switches = new Map<string, ToolSwitch>();
      for (const row of await run<SwitchRow>(pool, ALL, [])) {
        switches.set(row.slug, {
          ...(row.enabled === null ? {} : { enabled: row.enabled }),
          ...(row.api === null ? {} : { api: row.api }),
        });
      }
      return switches;
    },
    async setSwitch(slug, change, audit) {
      await audited(pool, audit, async (db) => {
        await run(db, MERGE, [slug, change.enabled ?? null, change.api ?? null]);
        return 1;
      });
    },
  };
}
