/**
 * The SQLite schema, as numbered migrations applied in order and recorded in `schema_migrations`.
 * Append a new entry to change the schema; never edit an applied one.
 */
export const migrations: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        plan TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        display_prefix TEXT NOT NULL,
        monthly_allowance INTEGER,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TABLE balances (
        key_id TEXT NOT NULL,
        period TEXT NOT NULL,
        used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
        PRIMARY KEY (key_id, period)
      ) WITHOUT ROWID;
      CREATE TABLE tool_calls (
        key_id TEXT NOT NULL,
        period TEXT NOT NULL,
        tool TEXT NOT NULL,
        calls INTEGER NOT NULL DEFAULT 0 CHECK (calls >= 0),
        PRIMARY KEY (key_id, period, tool)
      ) WITHOUT ROWID;
      CREATE TABLE usage (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        call_id TEXT NOT NULL UNIQUE,
        request_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        period TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'charged', 'refunded')),
        http_status INTEGER,
        credits INTEGER NOT NULL CHECK (credits >= 0),
        at TEXT NOT NULL
      );
      CREATE INDEX usage_by_key_period ON usage (key_id, period, seq);
      CREATE INDEX usage_pending ON usage (at) WHERE status = 'pending';
      CREATE TABLE tool_switches (
        slug TEXT PRIMARY KEY,
        enabled INTEGER,
        api INTEGER
      );
    `,
  },
  {
    // Calls are recorded charged or refunded in one transaction (Store.runCall), so only the
    // pending calls of reserve() are ever looked up by id. Each recorded call then writes two
    // pages fewer: no id index over every row, no sqlite_sequence row (rows are never deleted, so
    // a plain rowid still only counts up and keeps usage cursors in order).
    version: 2,
    sql: `
      CREATE TABLE usage_v2 (
        seq INTEGER PRIMARY KEY,
        call_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        period TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'charged', 'refunded')),
        http_status INTEGER,
        credits INTEGER NOT NULL CHECK (credits >= 0),
        at TEXT NOT NULL
      );
      INSERT INTO usage_v2 (seq, call_id, request_id, key_id, tool, period, status, http_status, credits, at)
        SELECT seq, call_id, request_id, key_id, tool, period, status, http_status, credits, at FROM usage;
      DROP TABLE usage;
      ALTER TABLE usage_v2 RENAME TO usage;
      CREATE INDEX usage_by_key_period ON usage (key_id, period, seq);
      CREATE UNIQUE INDEX usage_pending ON usage (call_id) WHERE status = 'pending';
    `,
  },
];

export const LATEST_VERSION = Math.max(...migrations.map((m) => m.version));
