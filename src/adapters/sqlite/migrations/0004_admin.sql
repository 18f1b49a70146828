-- The admin API: key expiry, metadata and this period's credit grant on api_keys; admin keys; the
-- audit log. Same table and column names as the PostgreSQL migration of the same number.
-- (Numbered 0004 so it never collides with the 0002/0003 of work landing beside it.)

ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
-- A JSON object of string values.
ALTER TABLE api_keys ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
-- Credits granted on top of the allowance for granted_period (`YYYY-MM`) only; a grant in a later
-- period replaces them. On the key's row so the call path reads them with the key, at no extra cost.
ALTER TABLE api_keys ADD COLUMN granted_credits INTEGER NOT NULL DEFAULT 0 CHECK (granted_credits >= 0);
ALTER TABLE api_keys ADD COLUMN granted_period TEXT;

CREATE TABLE admin_keys (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash    TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  revoked_at     TEXT
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
