-- Jobs: tool calls answered 202 at once and read later, with the same table and column names as
-- the SQLite migration of the same number.
-- `status`: queued, running, settling (its tool succeeded and its charge is being made; shown as
-- running), succeeded, failed, canceled. `lease_owner` is the instance running it, which moves
-- `lease_expires_at` on while it runs; a live job whose lease lapsed belongs to a dead instance.
-- `call_id` is the reservation of its credits in `calls`. `result` is the 200 envelope and
-- `problem` the problem document, as JSON text. `expires_at` is set when it ends: it is purged then.
CREATE TABLE jobs (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id               text NOT NULL UNIQUE,
  account_id       text NOT NULL,
  key_id           text NOT NULL,
  tool             text NOT NULL,
  status           text NOT NULL,
  call_id          text NOT NULL,
  idempotency_key  text,
  fingerprint      text,
  lease_owner      text NOT NULL,
  lease_expires_at timestamptz NOT NULL,
  credits_used     bigint NOT NULL DEFAULT 0,
  result           text,
  problem          text,
  created_at       timestamptz NOT NULL,
  started_at       timestamptz,
  finished_at      timestamptz,
  expires_at       timestamptz
);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (account_id, idempotency_key);
CREATE INDEX jobs_account ON jobs (account_id, seq);
CREATE INDEX jobs_live ON jobs (status, lease_expires_at);
CREATE INDEX jobs_expiry ON jobs (expires_at);
