-- The admin API: key expiry, metadata and this period's credit grant on api_keys; admin keys; the
-- audit log. Same table and column names as the SQLite migration of the same number.
-- (Numbered 0004 so it never collides with the 0002/0003 of work landing beside it.)

ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
-- A JSON object of string values, kept as text like SQLite's so both read it the same way.
ALTER TABLE api_keys ADD COLUMN metadata text NOT NULL DEFAULT '{}';
-- Credits granted on top of the allowance for granted_period (`YYYY-MM`) only; a grant in a later
-- period replaces them. On the key's row so the call path reads them with the key (and the key
-- cache forgets them through the api_keys trigger), at no extra cost per call.
ALTER TABLE api_keys ADD COLUMN granted_credits integer NOT NULL DEFAULT 0 CHECK (granted_credits >= 0);
ALTER TABLE api_keys ADD COLUMN granted_period text;

CREATE TABLE admin_keys (
  id             text PRIMARY KEY,
  name           text NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash    text NOT NULL UNIQUE,
  display_prefix text NOT NULL,
  created_at     timestamptz NOT NULL,
  revoked_at     timestamptz
);

-- Append-only. `seq` orders the log and backs its cursor.
CREATE TABLE audit_log (
  seq        bigserial PRIMARY KEY,
  at         timestamptz NOT NULL,
  actor_type text NOT NULL CHECK (actor_type IN ('admin_key', 'cli')),
  actor_id   text NOT NULL,
  action     text NOT NULL,
  target     text NOT NULL,
  request_id text,
  details    text NOT NULL
);
CREATE INDEX audit_log_target_seq ON audit_log (target, seq);
