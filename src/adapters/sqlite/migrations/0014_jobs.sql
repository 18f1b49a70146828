-- Jobs: tool calls answered 202 at once and read later, with the same table and column names as
-- the PostgreSQL migration of the same number. Timestamps are ISO 8601 text in UTC.
-- `status`: queued, running, settling (its tool succeeded and its charge is being made; shown as
-- running), succeeded, failed, canceled. `lease_owner` is the instance running it, which moves
-- `lease_expires_at` on while it runs; a live job whose lease lapsed belongs to a dead instance.
-- `call_id` is the reservation of its credits in `calls`. `result` is the 200 envelope and
-- `problem` the problem document, as JSON text. `expires_at` is set when it ends: it is purged then.
CREATE TABLE jobs (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  id               TEXT NOT NULL UNIQUE,
  account_id       TEXT NOT NULL,
  key_id           TEXT NOT NULL,
  tool             TEXT NOT NULL,
  status           TEXT NOT NULL,
  call_id          TEXT NOT NULL,
  idempotency_key  TEXT,
  fingerprint      TEXT,
  lease_owner      TEXT NOT NULL,
  lease_expires_at TEXT NOT NULL,
  credits_used     INTEGER NOT NULL DEFAULT 0,
  result           TEXT,
  problem          TEXT,
  created_at       TEXT NOT NULL,
  started_at       TEXT,
  finished_at      TEXT,
  expires_at       TEXT
);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (account_id, idempotency_key);
CREATE INDEX jobs_account ON jobs (account_id, seq);
CREATE INDEX jobs_live ON jobs (status, lease_expires_at);
CREATE INDEX jobs_expiry ON jobs (expires_at);
