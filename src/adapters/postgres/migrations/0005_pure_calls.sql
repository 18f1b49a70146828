-- A call whose tool already ran (the tools are pure) is checked, charged or recorded as refunded in
-- ONE statement and one commit, instead of a reservation and a settlement of two each; and the
-- calls that reach one instance in the same moment are sent together, one statement and one
-- commit for all of them (toolrun_calls). Calls with an idempotency key keep the reservation of
-- 0002, since their stored answer is written after the run.

-- One call. p_http_status is the run's: 200 charges the call (the checks and holds of
-- toolrun_reserve, then the usage row as charged); any other records it as refunded (counted in
-- `calls` only), after the same checks, so a failing call is refused exactly when a succeeding one
-- would be. Lock order as toolrun_reserve: the tool's counter row, then the key's balance row.
CREATE FUNCTION toolrun_call(
  p_call_id     text,
  p_request_id  text,
  p_key_id      text,
  p_tool        text,
  p_period      text,
  p_credits     integer,
  p_allowance   integer, -- NULL: metering off, never refused
  p_cap         integer, -- NULL: no monthly call cap
  p_at          timestamptz,
  p_http_status integer,
  OUT outcome      text, -- 'charged' | 'refunded' | 'tier_limit' | 'insufficient_credits'
  OUT credits_used integer, -- the key's balance after the call
  OUT active_calls integer  -- the tool's pending and charged calls after it (its cap's count)
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_charged boolean := p_http_status = 200;
  v_held    integer := CASE WHEN p_http_status = 200 THEN 1 ELSE 0 END;
  v_calls   integer;
BEGIN
  -- 1. Count the call against the tool's cap (see toolrun_reserve). A failed run holds no slot but
  -- is refused when the cap is reached, like a successful one.
  INSERT INTO tool_usage_monthly AS t (key_id, period, tool, calls, active_calls, credits)
  SELECT p_key_id, p_period, p_tool, 1, v_held, v_held * p_credits WHERE p_cap IS NULL OR 1 <= p_cap
  ON CONFLICT (key_id, period, tool) DO UPDATE
    SET calls = t.calls + 1,
        active_calls = t.active_calls + EXCLUDED.active_calls,
        credits = t.credits + EXCLUDED.credits
    WHERE p_cap IS NULL OR t.active_calls + 1 <= p_cap
  RETURNING t.calls, t.active_calls INTO v_calls, active_calls;
  IF NOT FOUND THEN
    outcome := 'tier_limit';
    SELECT b.used INTO credits_used FROM credit_balances b WHERE b.key_id = p_key_id AND b.period = p_period;
    credits_used := coalesce(credits_used, 0);
    SELECT t.active_calls INTO active_calls FROM tool_usage_monthly t
    WHERE t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool;
    active_calls := coalesce(active_calls, 0);
    RETURN;
  END IF;

  -- 2. Hold the credits within the allowance; a failed run holds nothing (its upsert adds 0) but is
  -- refused when the credits would not have covered it. The row is locked either way, so the value
  -- read is the one every later reservation of the key builds on.
  INSERT INTO credit_balances AS b (key_id, period, used)
  SELECT p_key_id, p_period, v_held * p_credits WHERE p_allowance IS NULL OR p_credits <= p_allowance
  ON CONFLICT (key_id, period) DO UPDATE
    SET used = b.used + EXCLUDED.used
    WHERE p_allowance IS NULL OR b.used + p_credits <= p_allowance
  RETURNING b.used INTO credits_used;
  IF NOT FOUND THEN
    -- Put the counter back as toolrun_reserve does (calls = 1: this statement created the row).
    active_calls := active_calls - v_held;
    IF v_calls = 1 THEN
      DELETE FROM tool_usage_monthly t
      WHERE t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool;
    ELSE
      UPDATE tool_usage_monthly t
      SET calls = t.calls - 1, active_calls = t.active_calls - v_held, credits = t.credits - v_held * p_credits
      WHERE t.key_id = p_key_id AND t.period = p_period AND t.tool = p_tool;
    END IF;
    outcome := 'insufficient_credits';
    SELECT b.used INTO credits_used FROM credit_balances b WHERE b.key_id = p_key_id AND b.period = p_period;
    credits_used := coalesce(credits_used, 0);
    RETURN;
  END IF;

  -- 3. Record the call with its final status.
  INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, http_status, at)
  VALUES (p_call_id, p_request_id, p_key_id, p_tool, p_period, p_credits,
          CASE WHEN v_charged THEN 'charged' ELSE 'refunded' END, p_http_status, p_at);
  outcome := CASE WHEN v_charged THEN 'charged' ELSE 'refunded' END;
END;
$$;

-- Several calls in one transaction, answered in the order given (one row per call). Every row the
-- batch will lock is locked first, in one global order: the counter rows sorted by (key, period,
-- tool), then the balance rows sorted by (key, period). A single call (toolrun_reserve,
-- toolrun_call, the refunds) locks one counter and then one balance, so it fits the same order and
-- no batch can deadlock with it or with another batch. A counter or balance row that does not
-- exist yet is created empty to be locked (`WHERE false` locks an existing row without writing
-- it); counter rows that end the batch with no call are removed again, since committed counter
-- rows always have calls >= 1 (toolrun_reserve relies on it).
CREATE FUNCTION toolrun_calls(
  p_call_ids     text[],
  p_request_ids  text[],
  p_key_ids      text[],
  p_tools        text[],
  p_periods      text[],
  p_credits      integer[],
  p_allowances   integer[],
  p_caps         integer[],
  p_ats          timestamptz[],
  p_http_statuses integer[]
)
RETURNS TABLE (outcome text, credits_used integer, active_calls integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT DISTINCT c.key_id, c.period, c.tool
    FROM unnest(p_key_ids, p_periods, p_tools) AS c(key_id, period, tool)
    ORDER BY c.key_id, c.period, c.tool
  LOOP
    INSERT INTO tool_usage_monthly AS t (key_id, period, tool, calls, active_calls, credits)
    VALUES (r.key_id, r.period, r.tool, 0, 0, 0)
    ON CONFLICT (key_id, period, tool) DO UPDATE SET calls = t.calls WHERE false;
  END LOOP;
  FOR r IN
    SELECT DISTINCT c.key_id, c.period
    FROM unnest(p_key_ids, p_periods) AS c(key_id, period)
    ORDER BY c.key_id, c.period
  LOOP
    INSERT INTO credit_balances AS b (key_id, period, used)
    VALUES (r.key_id, r.period, 0)
    ON CONFLICT (key_id, period) DO UPDATE SET used = b.used WHERE false;
  END LOOP;

  FOR i IN 1 .. coalesce(array_length(p_call_ids, 1), 0) LOOP
    RETURN QUERY SELECT c.outcome, c.credits_used, c.active_calls FROM toolrun_call(
      p_call_ids[i], p_request_ids[i], p_key_ids[i], p_tools[i], p_periods[i], p_credits[i],
      p_allowances[i], p_caps[i], p_ats[i], p_http_statuses[i]) c;
  END LOOP;

  DELETE FROM tool_usage_monthly t
  USING (SELECT DISTINCT c.key_id, c.period, c.tool
         FROM unnest(p_key_ids, p_periods, p_tools) AS c(key_id, period, tool)) AS c
  WHERE t.key_id = c.key_id AND t.period = c.period AND t.tool = c.tool AND t.calls = 0;
END;
$$;
