-- Keys, the credit ledger, per-tool monthly counters, the usage record and operator switches.
-- Timestamps are timestamptz; money-like counters are integers changed only inside transactions.

CREATE TABLE api_keys (
  id                text PRIMARY KEY,
  name              text NOT NULL,
  plan              text NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash       text NOT NULL UNIQUE,
  display_prefix    text NOT NULL,
  monthly_allowance integer,
  created_at        timestamptz NOT NULL,
  revoked_at        timestamptz
);

-- Credits held by pending and charged calls, per key and calendar month (`YYYY-MM`).
-- reserve() changes `used` with one conditional upsert, so two instances can never overspend.
CREATE TABLE credit_balances (
  key_id text NOT NULL REFERENCES api_keys (id),
  period text NOT NULL,
  used   integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (key_id, period)
);

-- Per key, month and tool: every call recorded (`calls`, refunded ones included, for the usage
-- report), the pending and charged ones (`active_calls`, checked against the monthly call cap) and
-- the credits they hold. Kept by reserve/refund so neither needs to scan the usage record.
CREATE TABLE tool_usage_monthly (
  key_id       text NOT NULL REFERENCES api_keys (id),
  period       text NOT NULL,
  tool         text NOT NULL,
  calls        integer NOT NULL CHECK (calls >= 0),
  active_calls integer NOT NULL CHECK (active_calls >= 0),
  credits      integer NOT NULL CHECK (credits >= 0),
  PRIMARY KEY (key_id, period, tool)
);

-- One row per reserved call. `seq` orders the recent-calls page and backs its cursor.
CREATE TABLE usage_calls (
  seq         bigserial PRIMARY KEY,
  call_id     text NOT NULL UNIQUE,
  request_id  text NOT NULL,
  key_id      text NOT NULL REFERENCES api_keys (id),
  tool        text NOT NULL,
  period      text NOT NULL,
  -- Credits reserved; a refunded call reports 0 but keeps what it had reserved here.
  credits     integer NOT NULL CHECK (credits >= 0),
  status      text NOT NULL CHECK (status IN ('pending', 'charged', 'refunded')),
  http_status integer,
  at          timestamptz NOT NULL,
  ended_at    timestamptz
);
CREATE INDEX usage_calls_key_period_seq ON usage_calls (key_id, period, seq DESC);
-- refundAbandoned() looks only at pending calls, which are few.
CREATE INDEX usage_calls_pending_at ON usage_calls (at) WHERE status = 'pending';

-- Operator switches; NULL means "not set, use the configuration".
CREATE TABLE tool_switches (
  slug    text PRIMARY KEY,
  enabled boolean,
  api     boolean
);
