-- The whole SQLite schema: keys, the credit ledger (balances, per-tool monthly counters, the usage
-- record) and operator switches, with the same table and column names as the PostgreSQL schema
-- (adapters/postgres/migrations/). Timestamps are ISO 8601 text in UTC.

CREATE TABLE api_keys (
  id                TEXT PRIMARY KEY,
  name              TEXT NOT NULL,
  plan              TEXT NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash       TEXT NOT NULL UNIQUE,
  display_prefix    TEXT NOT NULL,
  monthly_allowance INTEGER,
  created_at        TEXT NOT NULL,
  revoked_at        TEXT
);

-- Credits held by charged calls, per key and calendar month (`YYYY-MM`).
CREATE TABLE credit_balances (
  key_id TEXT NOT NULL,
  period TEXT NOT NULL,
  used   INTEGER NOT NULL CHECK (used >= 0),
  PRIMARY KEY (key_id, period)
) WITHOUT ROWID;

-- Per key, month and tool: every call recorded (`calls`, refunded ones included, for the usage
-- report), the charged ones (`active_calls`, checked against the monthly call cap) and the credits
-- they hold.
CREATE TABLE tool_usage_monthly (
  key_id       TEXT NOT NULL,
  period       TEXT NOT NULL,
  tool         TEXT NOT NULL,
  calls        INTEGER NOT NULL CHECK (calls >= 0),
  active_calls INTEGER NOT NULL CHECK (active_calls >= 0),
  credits      INTEGER NOT NULL CHECK (credits >= 0),
  PRIMARY KEY (key_id, period, tool)
) WITHOUT ROWID;

-- One row per recorded call. A call is recorded once, charged or refunded, in the transaction that
-- admits it, so no row is ever pending here and no index on call_id is needed. `seq` (the rowid,
-- which only grows since rows are never deleted) orders the recent-calls page and backs its cursor.
CREATE TABLE usage_calls (
  seq         INTEGER PRIMARY KEY,
  call_id     TEXT NOT NULL,
  request_id  TEXT NOT NULL,
  key_id      TEXT NOT NULL,
  tool        TEXT NOT NULL,
  period      TEXT NOT NULL,
  -- Credits the call was priced at; a refunded call reports 0.
  credits     INTEGER NOT NULL CHECK (credits >= 0),
  status      TEXT NOT NULL CHECK (status IN ('pending', 'charged', 'refunded')),
  http_status INTEGER,
  at          TEXT NOT NULL
);
CREATE INDEX usage_calls_key_period_seq ON usage_calls (key_id, period, seq);

-- Operator switches; NULL means "not set, use the configuration".
CREATE TABLE tool_switches (
  slug    TEXT PRIMARY KEY,
  enabled INTEGER,
  api     INTEGER
);
