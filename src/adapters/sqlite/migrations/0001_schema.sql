-- The SQLite schema: keys and admin keys, the credit ledger (balances, per-tool monthly counters,
-- the usage record, idempotency keys), operator switches and the audit log, with the same table
-- and column names as the PostgreSQL schema (adapters/postgres/migrations/). Timestamps are
-- ISO 8601 text in UTC; INTEGER is 64-bit.

CREATE TABLE api_keys (
  id                TEXT PRIMARY KEY,
  name              TEXT NOT NULL,
  plan              TEXT NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash       TEXT NOT NULL UNIQUE,
  display_prefix    TEXT NOT NULL,
  -- The key's own monthly allowance instead of its plan's; NULL for the plan's.
  monthly_allowance INTEGER,
  created_at        TEXT NOT NULL,
  revoked_at        TEXT,
  expires_at        TEXT,
  -- A JSON object of string values.
  metadata          TEXT NOT NULL DEFAULT '{}',
  -- Credits granted on top of the allowance for granted_period (`YYYY-MM`) only; a grant in a
  -- later period replaces them. On the key's row so the call path reads them with the key.
  granted_credits   INTEGER NOT NULL DEFAULT 0 CHECK (granted_credits >= 0),
  granted_period    TEXT
);

CREATE TABLE admin_keys (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash    TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  revoked_at     TEXT
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

-- One row per recorded call. A call of a tool that only computes is recorded once, charged or
-- refunded, in the transaction that admits it; a reservation is recorded pending first, and only
-- pending rows are looked up by call_id (through the partial indexes of 0004_reservations.sql).
-- `seq` (the rowid, which only grows since rows are never deleted) orders the recent-calls page
-- and backs its cursor.
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

-- Idempotency keys, scoped to the account (the API key's id, which a rotation keeps). A call claims
-- its key before it runs and stores its answer in the transaction that records it
-- (adapters/sqlite/ledger.ts). A rowid table, not WITHOUT ROWID: that would keep each row whole in
-- the key's b-tree, and SQLite reads a row's whole record, overflow pages included, to compare a
-- key against it, so every lookup would read the stored answers (a megabyte for the inspector's).
CREATE TABLE idempotency_keys (
  key_id        TEXT NOT NULL,
  idem_key      TEXT NOT NULL,
  -- What the call asked for (tool and body), so a retry asking for something else is told so.
  fingerprint   TEXT NOT NULL,
  call_id       TEXT NOT NULL,
  -- The stored answer; NULL while the call runs.
  answer_status INTEGER,
  answer_body   TEXT,
  expires_at    TEXT NOT NULL,
  PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);

-- Operator switches; NULL means "not set, use the configuration".
CREATE TABLE tool_switches (
  slug    TEXT PRIMARY KEY,
  enabled INTEGER,
  api     INTEGER
);

-- Append-only. `seq` (the rowid; rows are never deleted) orders the log and backs its cursor.
CREATE TABLE audit_log (
  seq        INTEGER PRIMARY KEY,
  at         TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('admin_key', 'cli')),
  actor_id   TEXT NOT NULL,
  action     TEXT NOT NULL,
  target     TEXT NOT NULL,
  request_id TEXT,
  -- A JSON object.
  details    TEXT NOT NULL
);
CREATE INDEX audit_log_target_seq ON audit_log (target, seq);
