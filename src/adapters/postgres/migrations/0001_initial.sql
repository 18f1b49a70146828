-- The whole PostgreSQL schema: keys, the credit ledger (balances, per-tool monthly counters, the
-- usage record), operator switches, rate-limit windows, the ledger's two functions and the
-- notification of key changes.
-- The table and column names are the same in the SQLite schema (adapters/sqlite/migrations/).
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
-- toolrun_reserve changes `used` with one conditional upsert, so two instances can never overspend.
CREATE TABLE credit_balances (
  key_id text NOT NULL REFERENCES api_keys (id),
  period text NOT NULL,
  used   integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (key_id, period)
);

-- Per key, month and tool: every call recorded (`calls`, refunded ones included, for the usage
-- report), the pending and charged ones (`active_calls`, checked against the monthly call cap) and
-- the credits they hold. Kept by the ledger's writes so no read needs to scan the usage record.
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
  at          timestamptz NOT NULL
);
CREATE INDEX usage_calls_key_period_seq ON usage_calls (key_id, period, seq DESC);
-- The sweep of abandoned calls looks only at pending calls, which are few.
CREATE INDEX usage_calls_pending_at ON usage_calls (at) WHERE status = 'pending';

-- Operator switches; NULL means "not set, use the configuration".
CREATE TABLE tool_switches (
  slug    text PRIMARY KEY,
  enabled boolean,
  api     boolean
);

-- Fixed rate-limit windows when there is no Redis. UNLOGGED: counters live a minute, so they skip
-- the WAL (much cheaper per request); a crash empties the table, which only restarts the windows.
CREATE UNLOGGED TABLE rate_windows (
  key          text NOT NULL,
  window_start bigint NOT NULL, -- epoch milliseconds
  expires_at   bigint NOT NULL, -- epoch milliseconds: the window's end
  count        integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_windows_expires_at ON rate_windows (expires_at);

-- The ledger's reserve and refund steps as one function each, so a step costs one round trip
-- instead of a BEGIN ... COMMIT transaction of four to six. Called with one statement in autocommit:
-- the function body is that statement's transaction, and READ COMMITTED gives each statement in it
-- a fresh snapshot, so a statement that waited for a row lock then sees the winner's committed work.
-- Tables are named unqualified: they resolve through the caller's search_path (the pool sets it to
-- the store's schema on every connection), like the adapter's plain statements.

-- Lock order, shared with toolrun_refund: the tool's counter row, then the key's balance row. Both
-- are locked by the conditional upserts, which lock the conflicting row before they evaluate their
-- WHERE, so concurrent reservations of one key queue on the row and each sees the previous one's
-- result.
CREATE FUNCTION toolrun_reserve(
  p_call_id    text,
  p_request_id text,
  p_key_id     text,
  p_tool       text,
  p_period     text,
  p_credits    integer,
  p_allowance  integer, -- NULL: metering off, never refused
  p_cap        integer, -- NULL: no monthly call cap
  p_at         timestamptz,
  OUT outcome      text, -- 'ok' | 'tier_limit' | 'insufficient_credits'
  OUT credits_used integer
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_calls integer;
BEGIN
  -- 1. Count the call against the tool's cap. No row returned: the cap is reached, nothing changed.
  INSERT INTO tool_usage_monthly AS t (key_id, period, tool, calls, active_calls, credits)
  SELECT p_key_id, p_period, p_tool, 1, 1, p_credits WHERE p_cap IS NULL OR 1 <= p_cap
  ON CONFLICT (key_id, period, tool) DO UPDATE
    SET calls = t.calls + 1,
        active_calls = t.active_calls + 1,
        credits = t.credits + EXCLUDED.credits
    WHERE p_cap IS NULL OR t.active_calls + 1 <= p_cap
  RETURNING t.calls INTO v_calls;
  IF NOT FOUND THEN
    outcome := 'tier_limit';
    SELECT b.used INTO credits_used FROM credit_balances b WHERE b.key_id = p_key_id AND b.period = p_period;
    credits_used := coalesce(credits_used, 0);
    RETURN;
  END IF;

  -- 2. Hold the credits within the allowance. No row returned: refused, and the counter row (still
  -- locked by step 1, so nobody has seen or built on the increment) is put back as it was.
  INSERT INTO credit_balances AS b (key_id, period, used)
  SELECT p_key_id, p_period, p_credits WHERE p_allowance IS NULL OR p_credits <= p_allowance
  ON CONFLICT (key_id, period) DO UPDATE
    SET used = b.used + EXCLUDED.used
    WHERE p_allowance IS NULL OR b.used + EXCLUDED.used <= p_allowance
  RETURNING b.used INTO credits_used;
  IF NOT FOUND THEN
    -- Committed counter rows always have calls >= 1, so calls = 1 means step 1 created the row:
    -- remove it, or the usage report would list the tool with 0 calls. A reservation waiting on
    -- the new row retries its insert once this transaction ends.
    IF v_calls = 1 THEN
      DELETE FROM tool_usage_monthly t
      WHERE t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool;
    ELSE
      UPDATE tool_usage_monthly t
      SET calls = t.calls - 1, active_calls = t.active_calls - 1, credits = t.credits - p_credits
      WHERE t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool;
    END IF;
    outcome := 'insufficient_credits';
    -- The refused upsert left the balance row locked: this is the value that refused us.
    SELECT b.used INTO credits_used FROM credit_balances b WHERE b.key_id = p_key_id AND b.period = p_period;
    credits_used := coalesce(credits_used, 0);
    RETURN;
  END IF;

  -- 3. Record the pending call.
  INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, at)
  VALUES (p_call_id, p_request_id, p_key_id, p_tool, p_period, p_credits, 'pending', p_at);
  outcome := 'ok';
END;
$$;

-- Pending -> refunded, giving back the call and its credits. False when the call was not pending
-- (settled, refunded already, unknown). Lock order: the call's own usage row (which reserve never
-- locks: it only inserts new ones), then the counter, then the balance, as in toolrun_reserve.
CREATE FUNCTION toolrun_refund(p_call_id text, p_http_status integer)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  c record;
BEGIN
  UPDATE usage_calls u
  SET status = 'refunded', http_status = p_http_status
  WHERE u.call_id = p_call_id AND u.status = 'pending'
  RETURNING u.key_id, u.period, u.tool, u.credits INTO c;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE tool_usage_monthly t
  SET active_calls = t.active_calls - 1, credits = t.credits - c.credits
  WHERE t.key_id = c.key_id AND t.period = c.period AND t.tool = c.tool;
  UPDATE credit_balances b
  SET used = b.used - c.credits
  WHERE b.key_id = c.key_id AND b.period = c.period;
  RETURN true;
END;
$$;

-- Every change to api_keys is announced on the channel `toolrun_api_keys` with the schema's name as
-- payload, in the changing transaction itself: PostgreSQL delivers it to every listening
-- connection when (and only if) that transaction commits. Instances that remember found keys
-- (key-cache.ts) forget them on it, whoever made the change: an instance, the CLI or plain SQL.
-- Statement level: one notification per statement (identical ones in a transaction are merged);
-- inserts are not announced, since only found keys are remembered.
CREATE FUNCTION toolrun_notify_key_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('toolrun_api_keys', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_changed
AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
FOR EACH STATEMENT EXECUTE FUNCTION toolrun_notify_key_change();
