-- Members: people who sign in to the console through an OpenID provider, each in one account;
-- the emails an operator invited into an account; the members' console sessions. Same tables and
-- columns as the SQLite migration of the same number. No session token is stored: `id_hash` is
-- its SHA-256.

CREATE TABLE members (
  id           text PRIMARY KEY,
  issuer       text NOT NULL,
  subject      text NOT NULL,
  -- Only an email the provider verified.
  email        text,
  name         text,
  account_id   text NOT NULL REFERENCES accounts (id),
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz,
  UNIQUE (issuer, subject)
);
CREATE INDEX members_account ON members (account_id, created_at, id);
CREATE INDEX members_created ON members (created_at, id);

-- One invite per email (lower case): the account its first sign-in joins.
CREATE TABLE member_invites (
  email      text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  created_at timestamptz NOT NULL
);

CREATE TABLE member_sessions (
  id_hash    text PRIMARY KEY,
  member_id  text NOT NULL REFERENCES members (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX member_sessions_member ON member_sessions (member_id);
CREATE INDEX member_sessions_expires ON member_sessions (expires_at);

-- The audit log's actor may now be a member.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check
  CHECK (actor_type IN ('admin_key', 'cli', 'member'));
