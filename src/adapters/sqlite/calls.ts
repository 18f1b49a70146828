/**
 * Who called, and the usage export, on SQLite: the calls listing newest first (keyset on `seq`)
 * and the settled calls in settlement order (keyset on `settled_seq`, numbered in commit order: by
 * the ledger's insert for a call settled at once, by the update trigger of
 * migrations/0013_call_origins.sql for one settled later). Boundary: read-only, `usage_calls`.
 */
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
import type { Db, Statement } from "./db.ts";

type EventRow = CallRecordRow & { settled_seq: number };

export function createCallLog(db: Db): CallLog {
  // One statement per combination of filters, so each uses the index its filters have.
  const prepared = new Map<string, Statement<EventRow>>();
  const prepare = (sql: string) => {
    let found = prepared.get(sql);
    if (found === undefined) {
      found = db.statement<EventRow>(sql);
      prepared.set(sql, found);
    }
    return found;
  };

  return {
    async listCalls(query) {
      const below = cursorParts(query.cursor, 1)?.[0];
      const limit = pageSize(query.limit);
      const { conditions, values } = callFilters(query, "at", () => "?");
      if (below !== undefined) {
        conditions.push("seq < CAST(? AS INTEGER)");
        values.push(below);
      }
      const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
      const rows = prepare(
        `SELECT ${CALL_COLUMNS}, settled_seq FROM usage_calls ${where} ORDER BY seq DESC LIMIT ?`,
      ).all(...values, limit + 1);
      const { page, next } = pageOf(rows, limit, (row) => String(row.seq));
      return { calls: page.map(toCallRecord), nextCursor: next };
    },

    async usageEvents(query) {
      const after = cursorParts(query.cursor, 1)?.[0];
      const limit = pageSize(query.limit);
      const { conditions, values } = callFilters(query, "settled_at", () => "?");
      conditions.push("settled_seq IS NOT NULL");
      if (after !== undefined) {
        conditions.push("settled_seq > CAST(? AS INTEGER)");
        values.push(after);
      }
      const rows = prepare(
        `SELECT ${CALL_COLUMNS}, settled_seq FROM usage_calls WHERE ${conditions.join(" AND ")}
         ORDER BY settled_seq LIMIT ?`,
      ).all(...values, limit + 1);
      const { page, next } = pageOf(rows, limit, (row) => String(row.settled_seq));
      const last = page.at(-1);
      return {
        calls: page.map(toCallRecord),
        nextCursor: last === undefined ? query.cursor : String(last.settled_seq),
        more: next !== null,
      };
    },
  };
}
