-- Accounts: a customer is an account, and its keys are its credentials. The account holds what a
-- key held for itself until now: the plan, its own monthly allowance, the grant of a period, and
-- the ledger's subject (balances, per-tool monthly counters, idempotency keys); the usage record
-- keeps the key that made each call (key_id) beside the account it charged (account_id). With the
-- same table and column names as the SQLite migration of the same number.
--
-- Each existing key becomes a one-key account whose id is derived from the key's (`key_X` ->
-- `acc_X`, anything else `acc_` + the id), so this is plain SQL and a key's figures stay exactly
-- as they were.

CREATE TABLE accounts (
  id                text PRIMARY KEY,
  name              text NOT NULL,
  plan              text NOT NULL,
  -- The account's own monthly allowance instead of its plan's; NULL for the plan's.
  monthly_allowance bigint,
  -- A JSON object of string values, kept as text like SQLite's.
  metadata          text NOT NULL DEFAULT '{}',
  -- Credits granted on top of the allowance for granted_period (`YYYY-MM`) only; a grant in a
  -- later period replaces them. The call path reads them with the key (one join).
  granted_credits   bigint NOT NULL DEFAULT 0 CHECK (granted_credits >= 0),
  granted_period    text,
  created_at        timestamptz NOT NULL
);
CREATE INDEX accounts_created_at ON accounts (created_at, id);

INSERT INTO accounts (id, name, plan, monthly_allowance, granted_credits, granted_period, created_at)
SELECT CASE WHEN k.id LIKE 'key\_%' THEN 'acc_' || substr(k.id, 5) ELSE 'acc_' || k.id END,
       k.name, k.plan, k.monthly_allowance, k.granted_credits, k.granted_period, k.created_at
FROM api_keys k;

ALTER TABLE api_keys ADD COLUMN account_id text REFERENCES accounts (id);
UPDATE api_keys SET account_id = CASE WHEN id LIKE 'key\_%' THEN 'acc_' || substr(id, 5) ELSE 'acc_' || id END;
ALTER TABLE api_keys
  ALTER COLUMN account_id SET NOT NULL,
  DROP COLUMN plan,
  DROP COLUMN monthly_allowance,
  DROP COLUMN granted_credits,
  DROP COLUMN granted_period;
CREATE INDEX api_keys_account ON api_keys (account_id, created_at, id);

-- The ledger's subject: the account. Rows are renamed in place (the derived id), so a key's
-- balance, counters and idempotent answers are its account's from now on.
ALTER TABLE credit_balances DROP CONSTRAINT credit_balances_key_id_fkey;
ALTER TABLE credit_balances RENAME COLUMN key_id TO account_id;
UPDATE credit_balances SET account_id = CASE WHEN account_id LIKE 'key\_%' THEN 'acc_' || substr(account_id, 5) ELSE 'acc_' || account_id END;
ALTER TABLE credit_balances ADD FOREIGN KEY (account_id) REFERENCES accounts (id);

ALTER TABLE tool_usage_monthly DROP CONSTRAINT tool_usage_monthly_key_id_fkey;
ALTER TABLE tool_usage_monthly RENAME COLUMN key_id TO account_id;
UPDATE tool_usage_monthly SET account_id = CASE WHEN account_id LIKE 'key\_%' THEN 'acc_' || substr(account_id, 5) ELSE 'acc_' || account_id END;
ALTER TABLE tool_usage_monthly ADD FOREIGN KEY (account_id) REFERENCES accounts (id);

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_key_id_fkey;
ALTER TABLE idempotency_keys RENAME COLUMN key_id TO account_id;
UPDATE idempotency_keys SET account_id = CASE WHEN account_id LIKE 'key\_%' THEN 'acc_' || substr(account_id, 5) ELSE 'acc_' || account_id END;
ALTER TABLE idempotency_keys ADD FOREIGN KEY (account_id) REFERENCES accounts (id);

-- usage_calls keeps who called (key_id) and gains whom it charged; the usage report reads by account.
ALTER TABLE usage_calls ADD COLUMN account_id text REFERENCES accounts (id);
UPDATE usage_calls SET account_id = CASE WHEN key_id LIKE 'key\_%' THEN 'acc_' || substr(key_id, 5) ELSE 'acc_' || key_id END;
ALTER TABLE usage_calls ALTER COLUMN account_id SET NOT NULL;
DROP INDEX usage_calls_key_period_seq;
CREATE INDEX usage_calls_account_period_seq ON usage_calls (account_id, period, seq DESC);

-- An account's change reaches the instances that remember its keys as a key's change does: on the
-- same channel, whoever made it (the plan, the allowance and the grant come with the key).
CREATE TRIGGER accounts_changed
AFTER UPDATE OR DELETE OR TRUNCATE ON accounts
FOR EACH STATEMENT EXECUTE FUNCTION toolrun_notify_key_change();

-- ============================================================================================
-- The ledger's functions, on the account (their lock order and rules as in 0001_schema.sql)
-- ============================================================================================
-- The functions that gain the key beside the account change their arguments: dropped and made
-- again. toolrun_refund reads the account from the call's row; the others are unchanged.
DROP FUNCTION toolrun_reserve_claimed(text, text, text, text, text, bigint, bigint, integer, timestamptz, text, text,
                                      timestamptz);
DROP FUNCTION toolrun_calls(text[], text[], text[], text[], text[], bigint[], bigint[], integer[], timestamptz[],
                            integer[]);
DROP FUNCTION toolrun_record_call(text, text, text, text, text, bigint, bigint, integer, timestamptz, integer);

-- --------------------------------------------------------------------------------------------
-- toolrun_record_call: one call, on rows its transaction has locked
-- --------------------------------------------------------------------------------------------
-- Checks one call against the books as they stand and records it. p_http_status is its run's:
-- NULL records a reservation (pending, its credits and cap slot held until it is settled or
-- refunded), 200 a charged call, anything else a refunded one (counted in `calls` only). A call
-- is refused exactly when a charged one would be, whatever its run gave. Returns the account's credits
-- and the tool's capped calls after the call. Only toolrun_calls calls it, once it holds the rows
-- (so the balance read beside the counter it updates is the current one).
CREATE OR REPLACE FUNCTION toolrun_record_call(
  p_call_id     text,
  p_request_id  text,
  p_account_id  text,
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
  WHERE t.account_id = p_account_id AND t.period = p_period AND t.tool = p_tool
    AND b.account_id = p_account_id AND b.period = p_period
    AND toolrun_refusal(b.used, p_credits, p_allowance, t.active_calls, p_cap) IS NULL
  RETURNING t.active_calls INTO active_calls;
  IF NOT FOUND THEN
    SELECT toolrun_refusal(b.used, p_credits, p_allowance, t.active_calls, p_cap), b.used, t.active_calls
    INTO outcome, credits_used, active_calls
    FROM credit_balances b, tool_usage_monthly t
    WHERE b.account_id = p_account_id AND b.period = p_period
      AND t.account_id = p_account_id AND t.period = p_period AND t.tool = p_tool;
    RETURN;
  END IF;
  UPDATE credit_balances b SET used = b.used + v_held * p_credits
  WHERE b.account_id = p_account_id AND b.period = p_period
  RETURNING b.used INTO credits_used;
  INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at)
  VALUES (p_call_id, p_request_id, p_account_id, p_key_id, p_tool, p_period, p_credits, outcome, p_http_status, p_at);
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
-- the counter rows sorted by (account, period, tool), then the balance rows sorted by (account, period); a
-- row that does not exist yet is created empty to be locked (`WHERE false` locks an existing row
-- without writing it). A call whose compensation came first (voided_calls) is void: it records
-- nothing.
--
-- Then, when every call of a batch of several passes the admission rule with the figures of the
-- calls before it, as is nearly always so, the batch is recorded set-wise: one update of its
-- counters, one of its balances, one insert of its usage rows. Otherwise, and for a single call,
-- a call at a time (toolrun_record_call), each seeing the ones before it.
CREATE OR REPLACE FUNCTION toolrun_calls(
  p_call_ids      text[],
  p_request_ids   text[],
  p_account_ids   text[],
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

  INSERT INTO tool_usage_monthly AS t (account_id, period, tool, calls, active_calls, credits)
  SELECT c.account_id, c.period, c.tool, 0, 0, 0
  FROM (SELECT DISTINCT u.account_id, u.period, u.tool
        FROM unnest(p_account_ids, p_periods, p_tools) AS u(account_id, period, tool)) AS c
  ORDER BY c.account_id, c.period, c.tool
  ON CONFLICT (account_id, period, tool) DO UPDATE SET calls = t.calls WHERE false;
  INSERT INTO credit_balances AS b (account_id, period, used)
  SELECT c.account_id, c.period, 0
  FROM (SELECT DISTINCT u.account_id, u.period FROM unnest(p_account_ids, p_periods) AS u(account_id, period)) AS c
  ORDER BY c.account_id, c.period
  ON CONFLICT (account_id, period) DO UPDATE SET used = b.used WHERE false;

  IF cardinality(p_call_ids) > 1 AND cardinality(v_voided) = 0 THEN
    -- Each call's figures before it: the books before the batch plus what the calls ahead of it
    -- (in the batch's order) hold, as if every one of them was admitted. When every call is, that
    -- is exactly so, and the batch is written as a whole; else nothing here is written.
    RETURN QUERY
    WITH calls AS (
      SELECT c.*, CASE WHEN c.http_status IS NULL OR c.http_status = 200 THEN 1 ELSE 0 END AS held,
             CASE WHEN c.http_status IS NULL THEN 'pending' WHEN c.http_status = 200 THEN 'charged'
                  ELSE 'refunded' END AS status
      FROM unnest(p_call_ids, p_request_ids, p_account_ids, p_key_ids, p_tools, p_periods, p_credits, p_allowances,
                  p_caps, p_ats, p_http_statuses)
        WITH ORDINALITY AS c(call_id, request_id, account_id, key_id, tool, period, credits, allowance, cap, at,
                             http_status, n)
    ), before AS (
      SELECT c.*,
             b.used + coalesce(sum(c.held * c.credits) OVER (PARTITION BY c.account_id, c.period ORDER BY c.n
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint AS used,
             t.active_calls + coalesce(sum(c.held) OVER (PARTITION BY c.account_id, c.period, c.tool ORDER BY c.n
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::integer AS active
      FROM calls c
      JOIN credit_balances b ON b.account_id = c.account_id AND b.period = c.period
      JOIN tool_usage_monthly t ON t.account_id = c.account_id AND t.period = c.period AND t.tool = c.tool
    ), admitted AS (
      SELECT bool_and(toolrun_refusal(f.used, f.credits, f.allowance, f.active, f.cap) IS NULL) AS all_in
      FROM before f
    ), counters AS (
      UPDATE tool_usage_monthly t
      SET calls = t.calls + g.calls, active_calls = t.active_calls + g.held, credits = t.credits + g.credits
      FROM (SELECT account_id, period, tool, count(*)::integer AS calls, sum(held)::integer AS held,
                   sum(held * credits)::bigint AS credits
            FROM calls GROUP BY account_id, period, tool) AS g, admitted
      WHERE admitted.all_in AND t.account_id = g.account_id AND t.period = g.period AND t.tool = g.tool
    ), balances AS (
      UPDATE credit_balances b
      SET used = b.used + g.credits
      FROM (SELECT account_id, period, sum(held * credits)::bigint AS credits FROM calls GROUP BY account_id, period) AS g, admitted
      WHERE admitted.all_in AND b.account_id = g.account_id AND b.period = g.period
    ), recorded AS (
      INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at)
      SELECT c.call_id, c.request_id, c.account_id, c.key_id, c.tool, c.period, c.credits, c.status, c.http_status, c.at
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
      FROM toolrun_record_call(p_call_ids[i], p_request_ids[i], p_account_ids[i], p_key_ids[i], p_tools[i], p_periods[i],
                               p_credits[i], p_allowances[i], p_caps[i], p_ats[i], p_http_statuses[i]) r;
    END IF;
    v_refused := v_refused OR outcome NOT IN ('pending', 'charged', 'refunded');
    RETURN NEXT;
  END LOOP;
  -- Counter rows created empty above for calls that were all refused or void.
  IF v_refused THEN
    DELETE FROM tool_usage_monthly t
    USING (SELECT DISTINCT c.account_id, c.period, c.tool
           FROM unnest(p_account_ids, p_periods, p_tools) AS c(account_id, period, tool)) AS c
    WHERE t.account_id = c.account_id AND t.period = c.period AND t.tool = c.tool AND t.calls = 0;
  END IF;
END;
$$;

-- --------------------------------------------------------------------------------------------
-- toolrun_reserve_claimed: a reservation with its idempotency key claimed first
-- --------------------------------------------------------------------------------------------
-- The key is claimed, then the call reserved (toolrun_calls with a NULL status), in one
-- transaction. A request whose key is held gets the holder's claim back ('claimed') without
-- touching the books; a refused reservation leaves no claim behind.
CREATE OR REPLACE FUNCTION toolrun_reserve_claimed(
  p_call_id     text,
  p_request_id  text,
  p_account_id  text,
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
    INSERT INTO idempotency_keys AS k (account_id, idem_key, fingerprint, call_id, expires_at)
    VALUES (p_account_id, p_idem_key, p_fingerprint, p_call_id, p_expires_at)
    ON CONFLICT (account_id, idem_key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, call_id = EXCLUDED.call_id,
          answer_status = NULL, answer_body = NULL, expires_at = EXCLUDED.expires_at
      WHERE k.expires_at <= p_at;
    EXIT WHEN FOUND;
    -- A fresh snapshot sees the claim that refused us, unless its call ended without an answer
    -- and deleted it meanwhile: then the key is free, and we try again.
    SELECT k.fingerprint, k.answer_status, k.answer_body INTO fingerprint, answer_status, answer_body
    FROM idempotency_keys k WHERE k.account_id = p_account_id AND k.idem_key = p_idem_key;
    IF FOUND THEN
      outcome := 'claimed';
      RETURN;
    END IF;
  END LOOP;
  SELECT c.outcome, c.credits_used INTO outcome, credits_used
  FROM toolrun_calls(ARRAY[p_call_id], ARRAY[p_request_id], ARRAY[p_account_id], ARRAY[p_key_id], ARRAY[p_tool], ARRAY[p_period],
                     ARRAY[p_credits], ARRAY[p_allowance], ARRAY[p_cap], ARRAY[p_at], ARRAY[NULL::integer]) c;
  IF outcome <> 'pending' THEN
    DELETE FROM idempotency_keys k WHERE k.account_id = p_account_id AND k.idem_key = p_idem_key;
  END IF;
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
CREATE OR REPLACE FUNCTION toolrun_refund(p_call_id text, p_http_status integer, p_answer_status integer,
                               p_answer_body text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  c record;
BEGIN
  UPDATE usage_calls u
  SET status = 'refunded', http_status = p_http_status
  WHERE u.call_id = p_call_id AND u.status = 'pending'
  RETURNING u.account_id, u.period, u.tool, u.credits INTO c;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE tool_usage_monthly t
  SET active_calls = t.active_calls - 1, credits = t.credits - c.credits
  WHERE t.account_id = c.account_id AND t.period = c.period AND t.tool = c.tool;
  UPDATE credit_balances b
  SET used = b.used - c.credits
  WHERE b.account_id = c.account_id AND b.period = c.period;
  IF p_answer_status IS NULL THEN
    DELETE FROM idempotency_keys k WHERE k.call_id = p_call_id AND k.answer_status IS NULL;
  ELSE
    UPDATE idempotency_keys k SET answer_status = p_answer_status, answer_body = p_answer_body
    WHERE k.call_id = p_call_id;
  END IF;
  RETURN true;
END;
$$;