-- A call whose outcome the process could not confirm (its settle or reserve got no answer in time,
-- so the client was answered 503) is given back whether or not the charge committed: pending or
-- charged -> refunded, with its call and credits. False when it was refunded already or never
-- reserved, so retrying it is safe. Same lock order as toolrun_refund.
CREATE FUNCTION toolrun_refund_unconfirmed(p_call_id text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  c record;
BEGIN
  UPDATE usage_calls u
  SET status = 'refunded', http_status = 503
  WHERE u.call_id = p_call_id AND u.status IN ('pending', 'charged')
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
