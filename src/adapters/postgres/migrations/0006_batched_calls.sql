-- toolrun_calls (0005) made one toolrun_call a call, plus two statements a distinct key to lock its
-- rows first: about 60 us of PostgreSQL's CPU a call in batches of ten. A batch in which no call
-- can be refused (each key's balance covers the credits of all its calls, each tool's cap all of
-- its calls, as is nearly always so) is now recorded set-wise: one update of its counters, one of
-- its balances, one insert of its usage rows, with each call's figures those it would have had
-- alone, in the batch's order. Any other batch takes 0005's path, a call at a time. The rows are
-- locked as before, in one global order, by two statements for the whole batch.

CREATE OR REPLACE FUNCTION toolrun_calls(
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
  v_refused boolean := false;
BEGIN
  -- Every row the batch will change, locked first in one global order (see 0005); a row that does
  -- not exist yet is created empty to be locked.
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

  -- Enough to rule out every refusal: a call is refused when the credits it needs (held or not,
  -- a failed run is refused exactly when a successful one would be) pass its key's allowance, or
  -- one more call passes its tool's cap; summing every call of the batch bounds what any call
  -- meets. A NULL allowance or cap (none) never binds: min() skips it.
  IF NOT EXISTS (
    SELECT 1
    FROM unnest(p_key_ids, p_periods, p_credits, p_allowances) AS c(key_id, period, credits, allowance)
    JOIN credit_balances b ON b.key_id = c.key_id AND b.period = c.period
    GROUP BY c.key_id, c.period, b.used
    HAVING b.used + sum(c.credits) > min(c.allowance)
  ) AND NOT EXISTS (
    SELECT 1
    FROM unnest(p_key_ids, p_periods, p_tools, p_caps) AS c(key_id, period, tool, cap)
    JOIN tool_usage_monthly t ON t.key_id = c.key_id AND t.period = c.period AND t.tool = c.tool
    GROUP BY c.key_id, c.period, c.tool, t.active_calls
    HAVING t.active_calls + count(*) > min(c.cap)
  ) THEN
    -- Each call's figures are those after it: the balance and the tool's active calls before the
    -- batch, plus what the calls up to it (in the batch's order) hold.
    RETURN QUERY
    WITH calls AS (
      SELECT c.*, CASE WHEN c.http_status = 200 THEN 1 ELSE 0 END AS held
      FROM unnest(p_call_ids, p_request_ids, p_key_ids, p_tools, p_periods, p_credits, p_ats, p_http_statuses)
        WITH ORDINALITY AS c(call_id, request_id, key_id, tool, period, credits, at, http_status, n)
    ), counters AS (
      UPDATE tool_usage_monthly t
      SET calls = t.calls + g.calls, active_calls = t.active_calls + g.held, credits = t.credits + g.credits
      FROM (SELECT key_id, period, tool, count(*)::integer AS calls, sum(held)::integer AS held,
                   sum(held * credits)::integer AS credits
            FROM calls GROUP BY key_id, period, tool) AS g
      WHERE t.key_id = g.key_id AND t.period = g.period AND t.tool = g.tool
      RETURNING t.key_id, t.period, t.tool, t.active_calls - g.held AS before
    ), balances AS (
      UPDATE credit_balances b
      SET used = b.used + g.credits
      FROM (SELECT key_id, period, sum(held * credits)::integer AS credits FROM calls GROUP BY key_id, period) AS g
      WHERE b.key_id = g.key_id AND b.period = g.period
      RETURNING b.key_id, b.period, b.used - g.credits AS before
    ), recorded AS (
      INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, http_status, at)
      SELECT call_id, request_id, key_id, tool, period, credits,
             CASE WHEN held = 1 THEN 'charged' ELSE 'refunded' END, http_status, at
      FROM calls ORDER BY n
    )
    SELECT CASE WHEN c.held = 1 THEN 'charged' ELSE 'refunded' END,
           (bb.before + sum(c.held * c.credits) OVER (PARTITION BY c.key_id, c.period ORDER BY c.n))::integer,
           (cc.before + sum(c.held) OVER (PARTITION BY c.key_id, c.period, c.tool ORDER BY c.n))::integer
    FROM calls c
    JOIN balances bb ON bb.key_id = c.key_id AND bb.period = c.period
    JOIN counters cc ON cc.key_id = c.key_id AND cc.period = c.period AND cc.tool = c.tool
    ORDER BY c.n;
    RETURN;
  END IF;

  FOR i IN 1 .. coalesce(array_length(p_call_ids, 1), 0) LOOP
    SELECT c.outcome, c.credits_used, c.active_calls INTO outcome, credits_used, active_calls
    FROM toolrun_call(
      p_call_ids[i], p_request_ids[i], p_key_ids[i], p_tools[i], p_periods[i], p_credits[i],
      p_allowances[i], p_caps[i], p_ats[i], p_http_statuses[i]) c;
    v_refused := v_refused OR outcome NOT IN ('charged', 'refunded');
    RETURN NEXT;
  END LOOP;
  -- Counter rows created empty above for calls that were all refused.
  IF v_refused THEN
    DELETE FROM tool_usage_monthly t
    USING (SELECT DISTINCT c.key_id, c.period, c.tool
           FROM unnest(p_key_ids, p_periods, p_tools) AS c(key_id, period, tool)) AS c
    WHERE t.key_id = c.key_id AND t.period = c.period AND t.tool = c.tool AND t.calls = 0;
  END IF;
END;
$$;
