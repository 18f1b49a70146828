-- A call answered 503 because the process could not confirm a step of it (its acknowledgement was
-- lost, so the charge may have committed): it must not stand. Pending or charged -> refunded
-- through the refund of 0001 (toolrun_refund_call), and its idempotency claim deleted even when an
-- answer was stored with the charge, since that answer was never delivered and a retry must run.
-- False when the call was refunded already or never reserved, so retrying is safe. Lock order as
-- toolrun_refund_answered: the usage row, the counter, the balance, then the claim.
CREATE FUNCTION toolrun_refund_unconfirmed(p_call_id text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  UPDATE usage_calls u SET status = 'pending' WHERE u.call_id = p_call_id AND u.status = 'charged';
  IF NOT toolrun_refund_call(p_call_id, 503) THEN
    RETURN false;
  END IF;
  DELETE FROM idempotency_keys k WHERE k.call_id = p_call_id;
  RETURN true;
END;
$$;
