/**
 * Who called, and the usage export, on PostgreSQL: the calls listing newest first (keyset on
 * `seq`) and the settled calls in settlement order, keyset on (settled_xid, seq): only rows settled
 * by a transaction older than every one still in progress are given (below the snapshot's xmin),
 * so a row that becomes visible later always sorts after what was given (migrations/
 * 0013_call_origins.sql). The cursor of the export is `xid.seq`. Boundary: read-only, `usage_calls`.
 */
import type { Pool } from "pg";
import type { CallLog } from "../../ports/call-log.ts";
import {
  CALL_COLUMNS,
  type CallRecordRow,
  callFilters,
  cursorParts,
  pageOf,
  toCallRecord,
} from "../call-rows.ts";
import { pageSize } from "../sql-rows.ts";
import { run, type Statement, statement } from "./db.ts";

type EventRow = CallRecordRow & { settled_xid: string | null };

export function createCallLog(pool: Pool): CallLog {
  // One prepared statement per combination of filters, so each uses the index its filters have.
  const prepared = new Map<string, Statement>();
  const prepare = (name: string, sql: string) => {
    let found = prepared.get(name);
    if (found === undefined) {
      found = statement(name, sql);
      prepared.set(name, found);
    }
    return found;
  };
  const param = (n: number) => `$${n}`;

  return {
    async listCalls(query) {
      const below = cursorParts(query.cursor, 1)?.[0];
      const limit = pageSize(query.limit);
      const { conditions, values, shape } = callFilters(query, "at", param);
      if (below !== undefined) {
        values.push(below);
        conditions.push(`seq < $${values.length}::bigint`);
      }
      values.push(limit + 1);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
      const sql = `SELECT ${CALL_COLUMNS}, settled_xid::text FROM usage_calls ${where}
                   ORDER BY seq DESC LIMIT $${values.length}`;
      const rows = await run<EventRow>(pool, prepare(`calls_list_${shape}${below ? "c" : ""}`, sql), values);
      const { page, next } = pageOf(rows, limit, (row) => String(row.seq));
      return { calls: page.map(toCallRecord), nextCursor: next };
    },

    async usageEvents(query) {
      const after = cursorParts(query.cursor, 2);
      const limit = pageSize(query.limit);
      const { conditions, values, shape } = callFilters(query, "settled_at", param);
      conditions.push("settled_xid IS NOT NULL", "settled_xid < pg_snapshot_xmin(pg_current_snapshot())");
      if (after) {
        values.push(after[0] ?? "0", after[1] ?? "0");
        conditions.push(
          `(settled_xid, seq) > ($${values.length - 1}::text::xid8, $${values.length}::bigint)`,
        );
      }
      values.push(limit + 1);
      const sql = `SELECT ${CALL_COLUMNS}, settled_xid::text FROM usage_calls WHERE ${conditions.join(" AND ")}
                   ORDER BY settled_xid, seq LIMIT $${values.length}`;
      const rows = await run<EventRow>(
        pool,
        prepare(`usage_events_${shape}${after ? "c" : ""}`, sql),
        values,
      );
      const cursorOf = (row: EventRow) => `${row.settled_xid}.${row.seq}`;
      const { page, next } = pageOf(rows, limit, cursorOf);
      const last = page.at(-1);
      return {
        calls: page.map(toCallRecord),
        nextCursor: last === undefined ? query.cursor : cursorOf(last),
        more: next !== null,
      };
    },
  };
}
