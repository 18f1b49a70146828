-- Members: people who sign in to the console through an OpenID provider, each in one account;
-- the emails an operator invited into an account; the members' console sessions. Same tables and
-- columns as the PostgreSQL migration of the same number. No session token is stored: `id_hash`
-- is its SHA-256. Timestamps are ISO 8601 text in UTC.

CREATE TABLE members (
  id           TEXT PRIMARY KEY,
  issuer       TEXT NOT NULL,
  subject      TEXT NOT NULL,
  -- Only an email the provider verified.
  email        TEXT,
  name         TEXT,
  account_id   TEXT NOT NULL REFERENCES accounts (id),
  status       TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at   TEXT NOT NULL,
  last_seen_at TEXT,
  UNIQUE (issuer, subject)
);
CREATE INDEX members_account ON members (account_id, created_at, id);
CREATE INDEX members_created ON members (created_at, id);

-- One invite per email (lower case): the account its first sign-in joins.
CREATE TABLE member_invites (
  email      TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  created_at TEXT NOT NULL
);

CREATE TABLE member_sessions (
  id_hash    TEXT PRIMARY KEY,
  member_id  TEXT NOT NULL REFERENCES members (id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX member_sessions_member ON member_sessions (member_id);
CREATE INDEX member_sessions_expires ON member_sessions (expires_at);

-- The audit log's actor may now be a member: SQLite changes a CHECK only by copying the table.
CREATE TABLE audit_log_next (
  seq        INTEGER PRIMARY KEY,
  at         TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('admin_key', 'cli', 'member')),
  actor_id   TEXT NOT NULL,
  action     TEXT NOT NULL,
  target     TEXT NOT NULL,
  request_id TEXT,
  -- A JSON object.
  details    TEXT NOT NULL
);
INSERT INTO audit_log_next SELECT seq, at, actor_type, actor_id, action, target, request_id, details FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_next RENAME TO audit_log;
CREATE INDEX audit_log_target_seq ON audit_log (target, seq);
