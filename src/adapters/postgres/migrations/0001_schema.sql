-- The PostgreSQL schema: keys and admin keys, the credit ledger (balances, per-tool monthly
-- counters, the usage record, idempotency keys), operator switches, rate-limit windows and the
-- audit log, then the ledger's functions, one section each.
-- Table and column names are those of the SQLite schema (adapters/sqlite/migrations/).
-- Timestamps are timestamptz. Credits are bigint wherever they are held or summed; they change only
-- inside the functions below, each called as one statement (its own transaction).

-- ============================================================================================
-- Tables
-- ============================================================================================

CREATE TABLE api_keys (
  id                text PRIMARY KEY,
  name              text NOT NULL,
  plan              text NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash       text NOT NULL UNIQUE,
  display_prefix    text NOT NULL,
  -- The key's own monthly allowance instead of its plan's; NULL for the plan's.
  monthly_allowance bigint,
  created_at        timestamptz NOT NULL,
  revoked_at        timestamptz,
  expires_at        timestamptz,
  -- A JSON object of string values, kept as text like SQLite's so both read it the same way.
  metadata          text NOT NULL DEFAULT '{}',
  -- Credits granted on top of the allowance for granted_period (`YYYY-MM`) only; a grant in a
  -- later period replaces them. On the key's row so the call path reads them with the key (and the
  -- key cache forgets them through the api_keys trigger).
  granted_credits   bigint NOT NULL DEFAULT 0 CHECK (granted_credits >= 0),
  granted_period    text
);

CREATE TABLE admin_keys (
  id             text PRIMARY KEY,
  name           text NOT NULL,
  -- SHA-256 of the secret; the secret itself is never stored.
  secret_hash    text NOT NULL UNIQUE,
  display_prefix text NOT NULL,
  created_at     timestamptz NOT NULL,
  revoked_at     timestamptz
);

-- Credits held by pending and charged calls, per key and calendar month (`YYYY-MM`).
CREATE TABLE credit_balances (
  key_id text NOT NULL REFERENCES api_keys (id),
  period text NOT NULL,
  used   bigint NOT NULL CHECK (used >= 0),
  PRIMARY KEY (key_id, period)
);

-- Per key, month and tool: every call recorded (`calls`, refunded ones included, for the usage
-- report), the pending and charged ones (`active_calls`, checked against the monthly call cap) and
-- the credits they hold. Kept by the ledger's writes so no read needs to scan the usage record.
-- A committed row always has calls >= 1.
CREATE TABLE tool_usage_monthly (
  key_id       text NOT NULL REFERENCES api_keys (id),
  period       text NOT NULL,
  tool         text NOT NULL,
  calls        integer NOT NULL CHECK (calls >= 0),
  active_calls integer NOT NULL CHECK (active_calls >= 0),
  credits      bigint NOT NULL CHECK (credits >= 0),
  PRIMARY KEY (key_id, period, tool)
);

-- One row per recorded call. `seq` orders the recent-calls page and backs its cursor.
CREATE TABLE usage_calls (
  seq         bigserial PRIMARY KEY,
  call_id     text NOT NULL UNIQUE,
  request_id  text NOT NULL,
  key_id      text NOT NULL REFERENCES api_keys (id),
  tool        text NOT NULL,
  period      text NOT NULL,
  -- Credits the call was priced at; a refunded call reports 0 but keeps its price here.
  credits     bigint NOT NULL CHECK (credits >= 0),
  status      text NOT NULL CHECK (status IN ('pending', 'charged', 'refunded')),
  http_status integer,
  at          timestamptz NOT NULL
);
CREATE INDEX usage_calls_key_period_seq ON usage_calls (key_id, period, seq DESC);
-- The sweep of abandoned calls looks only at pending calls, which are few.
CREATE INDEX usage_calls_pending_at ON usage_calls (at) WHERE status = 'pending';

-- Calls answered 503 whose compensation found nothing recorded: their recording may still be on
-- its way (a statement held in a stalled connection), and must find this and record nothing
-- (toolrun_refund_unconfirmed). Kept a day, far longer than a statement can wait in a connection.
CREATE TABLE voided_calls (
  call_id text PRIMARY KEY,
  at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX voided_calls_at ON voided_calls (at);

-- Idempotency keys, scoped to the account (the API key's id, which a rotation keeps). The claim is
-- taken in the reservation's transaction, so every instance sees it at once, and the answer is
-- stored in the settlement's or the refund's, so a charge is never kept without its answer.
CREATE TABLE idempotency_keys (
  key_id        text NOT NULL REFERENCES api_keys (id),
  idem_key      text NOT NULL,
  -- What the call asked for (tool and body), so a retry asking for something else is told so.
  fingerprint   text NOT NULL,
  call_id       text NOT NULL,
  -- The stored answer; NULL while the call runs. A call that ends without an answer (refunded by
  -- the sweep after its process died, or when its charge could not be confirmed) deletes its claim.
  answer_status integer,
  answer_body   text,
  expires_at    timestamptz NOT NULL,
  PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
CREATE INDEX idempotency_keys_call_id ON idempotency_keys (call_id);

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

-- ============================================================================================
-- The ledger's functions
--
-- Each is called with one statement in autocommit: the function body is that statement's
-- transaction, and READ COMMITTED gives each statement in it a fresh snapshot, so a statement that
-- waited for a lock then sees the winner's committed work. Tables are named unqualified: they
-- resolve through the caller's search_path (the pool sets it to the store's schema).
--
-- Lock order, the same in every function, so none can deadlock with another: the call ids'
-- advisory locks (toolrun_calls, toolrun_refund_unconfirmed), then a call's own usage row (the
-- refunds and the settlement; the recording of calls only inserts new ones), then the tools'
-- counter rows, then the keys' balance rows, then idempotency claims.
-- ============================================================================================

-- --------------------------------------------------------------------------------------------
-- toolrun_refusal: the admission rule
-- --------------------------------------------------------------------------------------------
-- Whether a call is admitted, given the credits its key holds this period (`p_used`) and its
-- tool's calls counted against the monthly cap before it (`p_active`): NULL when it is, else why
-- not. The cap first, since when both refuse more credits would not help; then the allowance.
-- A NULL allowance (metering off) or cap (none) never refuses.
CREATE FUNCTION toolrun_refusal(p_used bigint, p_credits bigint, p_allowance bigint, p_active bigint,
                                p_cap bigint)
RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_cap IS NOT NULL AND p_active >= p_cap THEN 'tier_limit'
    WHEN p_allowance IS NOT NULL AND p_used + p_credits > p_allowance THEN 'insufficient_credits'
  END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_record_call: one call, on rows its transaction has locked
-- --------------------------------------------------------------------------------------------
-- Checks one call against the books as they stand and records it. p_http_status is its run's:
-- NULL records a reservation (pending, its credits and cap slot held until it is settled or
-- refunded), 200 a charged call, anything else a refunded one (counted in `calls` only). A call
-- is refused exactly when a charged one would be, whatever its run gave. Returns the key's credits
-- and the tool's capped calls after the call. Only toolrun_calls calls it, once it holds the rows
-- (so the balance read beside the counter it updates is the current one).
CREATE FUNCTION toolrun_record_call(
  p_call_id     text,
  p_request_id  text,
  p_key_id      text,
  p_tool        text,
  p_period      text,
  p_credits     bigint,
  p_allowance   bigint,
  p_cap         integer,
  p_at          timestamptz,
  p_http_status integer,
  OUT outcome      text, -- 'pending' | 'charged' | 'refunded' | 'tier_limit' | 'insufficient_credits'
  OUT credits_used bigint,
  OUT active_calls integer
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_held integer := CASE WHEN p_http_status IS NULL OR p_http_status = 200 THEN 1 ELSE 0 END;
BEGIN
  outcome := CASE WHEN p_http_status IS NULL THEN 'pending' WHEN v_held = 1 THEN 'charged' ELSE 'refunded' END;
  UPDATE tool_usage_monthly t
  SET calls = t.calls + 1, active_calls = t.active_calls + v_held, credits = t.credits + v_held * p_credits
  FROM credit_balances b
  WHERE t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool
    AND b.key_id = p_key_id AND b.period = p_period
    AND toolrun_refusal(b.used, p_credits, p_allowance, t.active_calls, p_cap) IS NULL
  RETURNING t.active_calls INTO active_calls;
  IF NOT FOUND THEN
    SELECT toolrun_refusal(b.used, p_credits, p_allowance, t.active_calls, p_cap), b.used, t.active_calls
    INTO outcome, credits_used, active_calls
    FROM credit_balances b, tool_usage_monthly t
    WHERE b.key_id = p_key_id AND b.period = p_period
      AND t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool;
    RETURN;
  END IF;
  UPDATE credit_balances b SET used = b.used + v_held * p_credits
  WHERE b.key_id = p_key_id AND b.period = p_period
  RETURNING b.used INTO credits_used;
  INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, http_status, at)
  VALUES (p_call_id, p_request_id, p_key_id, p_tool, p_period, p_credits, outcome, p_http_status, p_at);
END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_calls: calls recorded together
-- --------------------------------------------------------------------------------------------
-- Several calls in one transaction, answered in the order given (one row per call, its outcome and
-- the figures after it, as toolrun_record_call gives them), so the calls that reach an instance in
-- the same moment share one round trip and one commit. Each call's outcome and figures are those it
-- would have had alone, after the calls before it.
--
-- Every row the batch will change is locked first, in the global lock order: the call ids, then
-- the counter rows sorted by (key, period, tool), then the balance rows sorted by (key, period); a
-- row that does not exist yet is created empty to be locked (`WHERE false` locks an existing row
-- without writing it). A call whose compensation came first (voided_calls) is void: it records
-- nothing.
--
-- Then, when every call of a batch of several passes the admission rule with the figures of the
-- calls before it, as is nearly always so, the batch is recorded set-wise: one update of its
-- counters, one of its balances, one insert of its usage rows. Otherwise, and for a single call,
-- a call at a time (toolrun_record_call), each seeing the ones before it.
CREATE FUNCTION toolrun_calls(
  p_call_ids      text[],
  p_request_ids   text[],
  p_key_ids       text[],
  p_tools         text[],
  p_periods       text[],
  p_credits       bigint[],
  p_allowances    bigint[],
  p_caps          integer[],
  p_ats           timestamptz[],
  p_http_statuses integer[] -- NULL: a reservation (pending)
)
RETURNS TABLE (outcome text, credits_used bigint, active_calls integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_voided text[];
  v_refused boolean := false;
BEGIN
  PERFORM pg_advisory_xact_lock(l.id)
  FROM (SELECT DISTINCT hashtextextended(c.call_id, 0) AS id FROM unnest(p_call_ids) AS c(call_id) ORDER BY 1) AS l;
  v_voided := ARRAY(SELECT v.call_id FROM voided_calls v WHERE v.call_id = ANY (p_call_ids));

  INSERT INTO tool_usage_monthly AS t (key_id, period, tool, calls, active_calls, credits)
  SELECT c.key_id, c.period, c.tool, 0, 0, 0
  FROM (SELECT DISTINCT u.key_id, u.period, u.tool
        FROM unnest(p_key_ids, p_periods, p_tools) AS u(key_id, period, tool)) AS c
  ORDER BY c.key_id, c.period, c.tool
  ON CONFLICT (key_id, period, tool) DO UPDATE SET calls = t.calls WHERE false;
  INSERT INTO credit_balances AS b (key_id, period, used)
  SELECT c.key_id, c.period, 0
  FROM (SELECT DISTINCT u.key_id, u.period FROM unnest(p_key_ids, p_periods) AS u(key_id, period)) AS c
  ORDER BY c.key_id, c.period
  ON CONFLICT (key_id, period) DO UPDATE SET used = b.used WHERE false;

  IF cardinality(p_call_ids) > 1 AND cardinality(v_voided) = 0 THEN
    -- Each call's figures before it: the books before the batch plus what the calls ahead of it
    -- (in the batch's order) hold, as if every one of them was admitted. When every call is, that
    -- is exactly so, and the batch is written as a whole; else nothing here is written.
    RETURN QUERY
    WITH calls AS (
      SELECT c.*, CASE WHEN c.http_status IS NULL OR c.http_status = 200 THEN 1 ELSE 0 END AS held,
             CASE WHEN c.http_status IS NULL THEN 'pending' WHEN c.http_status = 200 THEN 'charged'
                  ELSE 'refunded' END AS status
      FROM unnest(p_call_ids, p_request_ids, p_key_ids, p_tools, p_periods, p_credits, p_allowances, p_caps,
                  p_ats, p_http_statuses)
        WITH ORDINALITY AS c(call_id, request_id, key_id, tool, period, credits, allowance, cap, at, http_status, n)
    ), before AS (
      SELECT c.*,
             b.used + coalesce(sum(c.held * c.credits) OVER (PARTITION BY c.key_id, c.period ORDER BY c.n
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint AS used,
             t.active_calls + coalesce(sum(c.held) OVER (PARTITION BY c.key_id, c.period, c.tool ORDER BY c.n
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::integer AS active
      FROM calls c
      JOIN credit_balances b ON b.key_id = c.key_id AND b.period = c.period
      JOIN tool_usage_monthly t ON t.key_id = c.key_id AND t.period = c.period AND t.tool = c.tool
    ), admitted AS (
      SELECT bool_and(toolrun_refusal(f.used, f.credits, f.allowance, f.active, f.cap) IS NULL) AS all_in
      FROM before f
    ), counters AS (
      UPDATE tool_usage_monthly t
      SET calls = t.calls + g.calls, active_calls = t.active_calls + g.held, credits = t.credits + g.credits
      FROM (SELECT key_id, period, tool, count(*)::integer AS calls, sum(held)::integer AS held,
                   sum(held * credits)::bigint AS credits
            FROM calls GROUP BY key_id, period, tool) AS g, admitted
      WHERE admitted.all_in AND t.key_id = g.key_id AND t.period = g.period AND t.tool = g.tool
    ), balances AS (
      UPDATE credit_balances b
      SET used = b.used + g.credits
      FROM (SELECT key_id, period, sum(held * credits)::bigint AS credits FROM calls GROUP BY key_id, period) AS g, admitted
      WHERE admitted.all_in AND b.key_id = g.key_id AND b.period = g.period
    ), recorded AS (
      INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, http_status, at)
      SELECT c.call_id, c.request_id, c.key_id, c.tool, c.period, c.credits, c.status, c.http_status, c.at
      FROM calls c, admitted
      WHERE admitted.all_in
      ORDER BY c.n
    )
    SELECT f.status, f.used + f.held * f.credits, f.active + f.held
    FROM before f, admitted
    WHERE admitted.all_in
    ORDER BY f.n;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;

  FOR i IN 1 .. cardinality(p_call_ids) LOOP
    IF p_call_ids[i] = ANY (v_voided) THEN
      outcome := 'voided';
      credits_used := 0;
      active_calls := 0;
    ELSE
      SELECT r.outcome, r.credits_used, r.active_calls INTO outcome, credits_used, active_calls
      FROM toolrun_record_call(p_call_ids[i], p_request_ids[i], p_key_ids[i], p_tools[i], p_periods[i],
                               p_credits[i], p_allowances[i], p_caps[i], p_ats[i], p_http_statuses[i]) r;
    END IF;
    v_refused := v_refused OR outcome NOT IN ('pending', 'charged', 'refunded');
    RETURN NEXT;
  END LOOP;
  -- Counter rows created empty above for calls that were all refused or void.
  IF v_refused THEN
    DELETE FROM tool_usage_monthly t
    USING (SELECT DISTINCT c.key_id, c.period, c.tool
           FROM unnest(p_key_ids, p_periods, p_tools) AS c(key_id, period, tool)) AS c
    WHERE t.key_id = c.key_id AND t.period = c.period AND t.tool = c.tool AND t.calls = 0;
  END IF;
END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_reserve_claimed: a reservation with its idempotency key claimed first
-- --------------------------------------------------------------------------------------------
-- The key is claimed, then the call reserved (toolrun_calls with a NULL status), in one
-- transaction. A request whose key is held gets the holder's claim back ('claimed') without
-- touching the books; a refused reservation leaves no claim behind.
CREATE FUNCTION toolrun_reserve_claimed(
  p_call_id     text,
  p_request_id  text,
  p_key_id      text,
  p_tool        text,
  p_period      text,
  p_credits     bigint,
  p_allowance   bigint,
  p_cap         integer,
  p_at          timestamptz,
  p_idem_key    text,
  p_fingerprint text,
  p_expires_at  timestamptz,
  OUT outcome       text, -- toolrun_calls' outcomes, or 'claimed'
  OUT credits_used  bigint,
  OUT fingerprint   text,
  OUT answer_status integer,
  OUT answer_body   text
)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  LOOP
    -- The upsert waits for a claim of the same key still being written, then locks the row before
    -- it evaluates the WHERE, so concurrent claims of one key queue on it and each sees the
    -- previous one's result. Only the row itself decides (a subquery here would read the
    -- statement's older snapshot): an expired claim is taken over, a live one is not.
    INSERT INTO idempotency_keys AS k (key_id, idem_key, fingerprint, call_id, expires_at)
    VALUES (p_key_id, p_idem_key, p_fingerprint, p_call_id, p_expires_at)
    ON CONFLICT (key_id, idem_key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, call_id = EXCLUDED.call_id,
          answer_status = NULL, answer_body = NULL, expires_at = EXCLUDED.expires_at
      WHERE k.expires_at <= p_at;
    EXIT WHEN FOUND;
    -- A fresh snapshot sees the claim that refused us, unless its call ended without an answer
    -- and deleted it meanwhile: then the key is free, and we try again.
    SELECT k.fingerprint, k.answer_status, k.answer_body INTO fingerprint, answer_status, answer_body
    FROM idempotency_keys k WHERE k.key_id = p_key_id AND k.idem_key = p_idem_key;
    IF FOUND THEN
      outcome := 'claimed';
      RETURN;
    END IF;
  END LOOP;
  SELECT c.outcome, c.credits_used INTO outcome, credits_used
  FROM toolrun_calls(ARRAY[p_call_id], ARRAY[p_request_id], ARRAY[p_key_id], ARRAY[p_tool], ARRAY[p_period],
                     ARRAY[p_credits], ARRAY[p_allowance], ARRAY[p_cap], ARRAY[p_at], ARRAY[NULL::integer]) c;
  IF outcome <> 'pending' THEN
    DELETE FROM idempotency_keys k WHERE k.key_id = p_key_id AND k.idem_key = p_idem_key;
  END IF;
END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_settle: a reservation charged
-- --------------------------------------------------------------------------------------------
-- Pending -> charged, with the answer (when given) stored under the call's idempotency key. False
-- when the call was no longer pending (the sweep refunded it, deleting its claim): then nothing is
-- charged or stored.
CREATE FUNCTION toolrun_settle(p_call_id text, p_http_status integer, p_answer_status integer,
                               p_answer_body text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  UPDATE usage_calls u SET status = 'charged', http_status = p_http_status
  WHERE u.call_id = p_call_id AND u.status = 'pending';
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  IF p_answer_status IS NOT NULL THEN
    UPDATE idempotency_keys k SET answer_status = p_answer_status, answer_body = p_answer_body
    WHERE k.call_id = p_call_id;
  END IF;
  RETURN true;
END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_refund: a reservation given back
-- --------------------------------------------------------------------------------------------
-- Pending -> refunded, its call and credits given back, and its idempotency claim settled in the
-- same transaction: the answer stored under it, or, without an answer, the claim deleted so that a
-- retry runs. False when the call was not pending (settled, refunded already, unknown).
-- A reservation holds a claim row while it waits for the books only when the claim is new or
-- expired, so a refund never waits for it unless a call outlived its key's TTL (PostgreSQL would
-- then abort one of the two as a deadlock, and its client would get a 503 to retry).
CREATE FUNCTION toolrun_refund(p_call_id text, p_http_status integer, p_answer_status integer,
                               p_answer_body text)
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
  IF p_answer_status IS NULL THEN
    DELETE FROM idempotency_keys k WHERE k.call_id = p_call_id AND k.answer_status IS NULL;
  ELSE
    UPDATE idempotency_keys k SET answer_status = p_answer_status, answer_body = p_answer_body
    WHERE k.call_id = p_call_id;
  END IF;
  RETURN true;
END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_refund_unconfirmed: the compensation of a call answered 503
-- --------------------------------------------------------------------------------------------
-- A call answered 503 because the process could not confirm a step of it (its answer was lost, or
-- the statement still sits in a stalled connection): it must end uncharged, whichever reaches the
-- database first, this or the step. Under the call id's advisory lock, which its recording takes
-- too:
-- - recorded (pending or charged): refunded, and its idempotency claim deleted even when an answer
--   was stored with the charge, since that answer was never delivered and a retry must run;
-- - not recorded: a tombstone in voided_calls, so that the step records nothing when it arrives.
-- False when it was refunded already or never recorded, so retrying is safe.
CREATE FUNCTION toolrun_refund_unconfirmed(p_call_id text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_call_id, 0));
  UPDATE usage_calls u SET status = 'pending' WHERE u.call_id = p_call_id AND u.status = 'charged';
  IF toolrun_refund(p_call_id, 503, NULL, NULL) THEN
    DELETE FROM idempotency_keys k WHERE k.call_id = p_call_id;
    RETURN true;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM usage_calls u WHERE u.call_id = p_call_id) THEN
    INSERT INTO voided_calls (call_id) VALUES (p_call_id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN false;
END;
$$;

-- ============================================================================================
-- Key changes announced
-- ============================================================================================
-- Every change to api_keys is announced on the channel `toolrun_api_keys` with the schema's name as
-- payload, in the changing transaction itself: PostgreSQL delivers it to every listening
-- connection when (and only if) that transaction commits. Instances that remember found keys
-- forget them on it, whoever made the change: an instance, the CLI or plain SQL.
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
