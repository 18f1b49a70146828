/**
 * The Store port on Node's built-in SQLite (`node:sqlite`), for one machine. Every ledger change
 * runs inside an IMMEDIATE transaction (shared by the changes queued in one event-loop turn, see
 * group-commit.ts), so it is atomic against this process and any other (the CLI) that opens the
 * same file. WAL mode: committed work survives a crash of the process.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { SchemaNotReadyError } from "../../ports/errors.ts";
import type {
  ApiKeyRecord,
  CallOutcome,
  CallStatus,
  NewApiKey,
  RefusalReason,
  Reservation,
  ReserveOutcome,
  Store,
  ToolSwitch,
  UsageCall,
  WorkResult,
} from "../../ports/store.ts";
import { translateSqliteError } from "./errors.ts";
import { createWriteQueue } from "./group-commit.ts";
import { createKeyCache } from "./key-cache.ts";
import { LATEST_VERSION, migrations } from "./migrations.ts";

type Row = Record<string, SQLInputValue>;

export interface SqliteStoreOptions {
  /** How long a write waits for another process's write lock before failing (503). */
  readonly busyTimeoutMs?: number;
}

export function createSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  // A `file:` URI (`file:/srv/toolrun.db?mode=ro`) names its file itself.
  if (path !== ":memory:" && !path.startsWith("file:")) mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(
    `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}; PRAGMA foreign_keys = ON;`,
  );

  const statements = new Map<string, StatementSync>();
  const sql = (text: string): StatementSync => {
    let statement = statements.get(text);
    if (!statement) {
      try {
        statement = db.prepare(text);
      } catch (error) {
        if (error instanceof Error && /no such table/.test(error.message)) {
          throw new SchemaNotReadyError("The SQLite schema is missing; run `toolrun migrate`.", {
            cause: error,
          });
        }
        throw error;
      }
      statements.set(text, statement);
    }
    return statement;
  };
  const transaction = <T>(work: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };
  // runCall, reserve, settle and refund: many calls share one commit (see group-commit.ts).
  const write = createWriteQueue(db);
  // Found keys, forgotten whenever another connection writes the file (see key-cache.ts).
  // Read on every key lookup; an array row saves building an object each time.
  const dataVersion = db.prepare("PRAGMA data_version");
  dataVersion.setReturnArrays(true);
  const keys = createKeyCache(() => Number((dataVersion.get() as unknown as [number])[0]));
  const appliedVersion = (): number => {
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    if (!table) return 0;
    const row = db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null };
    return row.v ?? 0;
  };

  const store: Store = {
    async migrate() {
      return transaction(() => {
        const applied: number[] = [];
        db.exec(
          "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
        );
        const current = appliedVersion();
        for (const migration of migrations) {
          if (migration.version <= current) continue;
          db.exec(migration.sql);
          db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(
            migration.version,
            new Date().toISOString(),
          );
          applied.push(migration.version);
        }
        return applied;
      });
    },
    async isMigrated() {
      return appliedVersion() >= LATEST_VERSION;
    },
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async probeWrite() {
      // Synchronous, so it never interleaves with a group commit's open transaction.
      db.exec("BEGIN IMMEDIATE");
      try {
        db.exec("UPDATE schema_migrations SET version = version WHERE 0");
      } finally {
        db.exec("ROLLBACK");
      }
    },
    async close() {
      if (db.isOpen) db.close();
    },

    async createKey(key) {
      insertKey(key);
    },
    async createFirstKey(key) {
      // IMMEDIATE: the count and the insert hold the write lock, so no other process slips between.
      return transaction(() => {
        if (Number((sql("SELECT COUNT(*) AS n FROM api_keys").get() as Row).n) > 0) return false;
        insertKey(key);
        return true;
      });
    },
    async findKeyByHash(secretHash) {
      const cached = keys.get(secretHash);
      if (cached) return cached;
      const row = sql("SELECT * FROM api_keys WHERE secret_hash = ?").get(secretHash);
      if (!row) return null;
      const record = toKey(row);
      keys.set(secretHash, record);
      return record;
    },
    async getKey(id) {
      const row = sql("SELECT * FROM api_keys WHERE id = ?").get(id);
      return row ? toKey(row) : null;
    },
    async listKeys() {
      return sql("SELECT * FROM api_keys ORDER BY created_at, id").all().map(toKey);
    },
    async countKeys() {
      return Number((sql("SELECT COUNT(*) AS n FROM api_keys").get() as Row).n);
    },
    async revokeKey(id, at) {
      keys.clear();
      return (
        sql("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id).changes ===
        1
      );
    },
    async rotateKey(id, secretHash, displayPrefix) {
      keys.clear();
      return (
        sql(
          "UPDATE api_keys SET secret_hash = ?, display_prefix = ? WHERE id = ? AND revoked_at IS NULL",
        ).run(secretHash, displayPrefix, id).changes === 1
      );
    },
    async setPlan(id, plan) {
      keys.clear();
      return sql("UPDATE api_keys SET plan = ? WHERE id = ?").run(plan, id).changes === 1;
    },

    async runCall<T>(r: Reservation, work: () => WorkResult<T>): Promise<CallOutcome<T>> {
      // The whole call is one unit of the write queue: the check, the tool's run and the record
      // commit together, so a crash leaves no half-made call behind and a call costs one commit.
      return write((): CallOutcome<T> => {
        const { used, refused } = admission(r);
        if (refused) return { status: "refused", reason: refused, creditsUsed: used };
        const result = work();
        if (!result.ok) {
          recordCall(r, "refunded", result.httpStatus, 0);
          return {
            status: "refunded",
            httpStatus: result.httpStatus,
            error: result.error,
            creditsUsed: used,
          };
        }
        hold(r);
        recordCall(r, "charged", 200, r.credits);
        return { status: "charged", value: result.value, creditsUsed: used + r.credits };
      });
    },
    async reserve(r) {
      return write((): ReserveOutcome => {
        const { used, refused } = admission(r);
        if (refused) return { ok: false, reason: refused, creditsUsed: used };
        hold(r);
        recordCall(r, "pending", null, r.credits);
        return { ok: true, creditsUsed: used + r.credits };
      });
    },
    async settle(callId, httpStatus) {
      await write(() => {
        sql(
          "UPDATE usage SET status = 'charged', http_status = ? WHERE call_id = ? AND status = 'pending'",
        ).run(httpStatus, callId);
      });
    },
    async refund(callId, httpStatus) {
      await write(() => refundPending(callId, httpStatus));
    },
    async creditsUsed(keyId, period) {
      const row = sql("SELECT used FROM balances WHERE key_id = ? AND period = ?").get(keyId, period) as
        | { used: number }
        | undefined;
      return row?.used ?? 0;
    },
    async usage(q) {
      const totals = sql(
        `SELECT tool, COUNT(*) AS calls, SUM(credits) AS credits FROM usage
         WHERE key_id = ? AND period = ? GROUP BY tool ORDER BY tool`,
      ).all(q.keyId, q.period) as { tool: string; calls: number; credits: number }[];
      const below = q.cursor === null ? Number.MAX_SAFE_INTEGER : Number(q.cursor);
      const rows = sql(
        `SELECT * FROM usage WHERE key_id = ? AND period = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ).all(q.keyId, q.period, below, q.limit + 1);
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      return {
        creditsUsed: totals.reduce((sum, t) => sum + t.credits, 0),
        calls: totals.reduce((sum, t) => sum + t.calls, 0),
        byTool: totals.map((t) => ({ tool: t.tool, calls: t.calls, credits: t.credits })),
        recent: page.map(toCall),
        nextCursor: rows.length > q.limit && last ? String(last.seq) : null,
      };
    },
    async refundAbandoned(before) {
      return transaction(() => {
        const stale = sql("SELECT call_id FROM usage WHERE status = 'pending' AND at < ?").all(before) as {
          call_id: string;
        }[];
        for (const row of stale) refundPending(row.call_id, null);
        return stale.length;
      });
    },

    async getSwitches() {
      const rows = sql("SELECT slug, enabled, api FROM tool_switches").all() as {
        slug: string;
        enabled: number | null;
        api: number | null;
      }[];
      return new Map(rows.map((r) => [r.slug, toSwitch(r.enabled, r.api)]));
    },
    async setSwitch(slug, change) {
      sql(
        `INSERT INTO tool_switches (slug, enabled, api) VALUES (?, ?, ?)
         ON CONFLICT (slug) DO UPDATE SET enabled = COALESCE(excluded.enabled, enabled), api = COALESCE(excluded.api, api)`,
      ).run(slug, flag(change.enabled), flag(change.api));
    },
  };

  /** Must run inside a transaction: the credits used so far, and why the call is refused (null: admitted). */
  function admission(r: Reservation): { readonly used: number; readonly refused: RefusalReason | null } {
    const usedRow = sql("SELECT used FROM balances WHERE key_id = ? AND period = ?").get(r.keyId, r.period) as
      | { used: number }
      | undefined;
    const used = usedRow?.used ?? 0;
    // The tool's cap first: when both refuse, more credits would not help.
    if (r.monthlyCallCap !== null) {
      const callsRow = sql("SELECT calls FROM tool_calls WHERE key_id = ? AND period = ? AND tool = ?").get(
        r.keyId,
        r.period,
        r.tool,
      ) as { calls: number } | undefined;
      if ((callsRow?.calls ?? 0) >= r.monthlyCallCap) return { used, refused: "tier_limit" };
    }
    if (r.allowance !== null && used + r.credits > r.allowance)
      return { used, refused: "insufficient_credits" };
    return { used, refused: null };
  }

  /** Must run inside a transaction: holds the call's credits and counts it against the tool's cap. */
  function hold(r: Reservation): void {
    sql(
      `INSERT INTO balances (key_id, period, used) VALUES (?, ?, ?)
       ON CONFLICT (key_id, period) DO UPDATE SET used = used + excluded.used`,
    ).run(r.keyId, r.period, r.credits);
    sql(
      `INSERT INTO tool_calls (key_id, period, tool, calls) VALUES (?, ?, ?, 1)
       ON CONFLICT (key_id, period, tool) DO UPDATE SET calls = calls + 1`,
    ).run(r.keyId, r.period, r.tool);
  }

  function recordCall(r: Reservation, status: CallStatus, httpStatus: number | null, credits: number): void {
    sql(
      `INSERT INTO usage (call_id, request_id, key_id, tool, period, status, http_status, credits, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(r.callId, r.requestId, r.keyId, r.tool, r.period, status, httpStatus, credits, r.at);
  }

  function insertKey(key: NewApiKey): void {
    sql(
      `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(key.id, key.name, key.plan, key.secretHash, key.displayPrefix, key.monthlyAllowance, key.createdAt);
  }

  /** Must run inside a transaction. Gives back the credits and the cap slot of a pending call. */
  function refundPending(callId: string, httpStatus: number | null): void {
    const call = sql(
      "SELECT key_id, period, tool, credits FROM usage WHERE call_id = ? AND status = 'pending'",
    ).get(callId) as { key_id: string; period: string; tool: string; credits: number } | undefined;
    if (!call) return;
    sql(
      "UPDATE usage SET status = 'refunded', http_status = ?, credits = 0 WHERE call_id = ? AND status = 'pending'",
    ).run(httpStatus, callId);
    sql("UPDATE balances SET used = used - ? WHERE key_id = ? AND period = ?").run(
      call.credits,
      call.key_id,
      call.period,
    );
    sql("UPDATE tool_calls SET calls = calls - 1 WHERE key_id = ? AND period = ? AND tool = ?").run(
      call.key_id,
      call.period,
      call.tool,
    );
  }

  return translatingErrors(store);
}

/** The store with every method's failures classified (errors.ts): an unusable file answers 503, not 500. */
function translatingErrors(store: Store): Store {
  const rethrow = (error: unknown): never => {
    throw translateSqliteError(error);
  };
  const translated: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(store) as [string, (...args: unknown[]) => Promise<unknown>][])
    translated[name] = (...args: unknown[]) => method(...args).catch(rethrow);
  return translated as unknown as Store;
}

function toKey(row: Row): ApiKeyRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    plan: String(row.plan),
    displayPrefix: String(row.display_prefix),
    monthlyAllowance: row.monthly_allowance === null ? null : Number(row.monthly_allowance),
    createdAt: String(row.created_at),
    revokedAt: row.revoked_at === null ? null : String(row.revoked_at),
  };
}

function toCall(row: Row): UsageCall {
  return {
    callId: String(row.call_id),
    requestId: String(row.request_id),
    tool: String(row.tool),
    status: String(row.status) as CallStatus,
    httpStatus: row.http_status === null ? null : Number(row.http_status),
    credits: Number(row.credits),
    at: String(row.at),
  };
}

function toSwitch(enabled: number | null, api: number | null): ToolSwitch {
  const result: { enabled?: boolean; api?: boolean } = {};
  if (enabled !== null) result.enabled = enabled === 1;
  if (api !== null) result.api = api === 1;
  return result;
}

function flag(value: boolean | undefined): number | null {
  return value === undefined ? null : value ? 1 : 0;
}
