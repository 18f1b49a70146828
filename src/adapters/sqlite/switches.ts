/**
 * SwitchStore on SQLite: per-tool operator switches, merged member by member in one upsert
 * (NULL = not set). Boundary: the `tool_switches` table only.
 */
import type { SwitchStore, ToolSwitch } from "../../ports/store.ts";
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";

interface SwitchRow {
  slug: string;
  enabled: number | null;
  api: number | null;
}

/** SQLite has no boolean type: 1, 0, or NULL for "not set". */
function flag(value: boolean | undefined): number | null {
  return value === undefined ? null : value ? 1 : 0;
}

export function createSwitchStore(db: Db, audited: Audited): SwitchStore {
  const all = db.statement<SwitchRow>("SELECT slug, enabled, api FROM tool_switches");
  const merge = db.statement(
    `INSERT INTO tool_switches (slug, enabled, api) VALUES (?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET
       enabled = COALESCE(excluded.enabled, tool_switches.enabled),
       api = COALESCE(excluded.api, tool_switches.api)`,
  );
  return {
    async getSwitches() {
      const switches = new Map<string, ToolSwitch>();
      for (const row of all.all()) {
        switches.set(row.slug, {
          ...(row.enabled === null ? {} : { enabled: row.enabled === 1 }),
          ...(row.api === null ? {} : { api: row.api === 1 }),
        });
      }
      return switches;
    },
    async setSwitch(slug, change, audit) {
      audited(() => merge.run(slug, flag(change.enabled), flag(change.api)), audit);
    },
  };
}
