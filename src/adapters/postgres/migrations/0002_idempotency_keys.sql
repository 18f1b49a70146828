-- Idempotency keys (decisions.md section 11), with the same table and column names as the SQLite
-- schema, and the ledger steps that keep them: the claim is taken in the reservation's own
-- transaction (so every instance sees it at once), and the answer is stored in the settlement's or
-- the refund's (so a charge is never kept without its answer, nor an answer without its charge).
CREATE TABLE idempotency_keys (
  -- The account: the API key's id, which a rotation keeps.
  key_id        text NOT NULL REFERENCES api_keys (id),
  idem_key      text NOT NULL,
  -- What the call asked for (tool and body), so a retry asking for something else is told so.
  fingerprint   text NOT NULL,
  call_id       text NOT NULL,
  -- The stored answer; NULL while the call runs. A claim without an answer whose call is no longer
  -- pending (refunded by the sweep after its process died, or when its charge was not confirmed)
  -- holds nothing: the next request with the key takes it over.
  answer_status integer,
  answer_body   text,
  expires_at    timestamptz NOT NULL,
  PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
CREATE INDEX idempotency_keys_call_id ON idempotency_keys (call_id);

-- toolrun_reserve with the key claimed first, in the same transaction. Lock order: the claim row,
-- then what toolrun_reserve locks (counter, balance). A request whose key is held gets the holder's
-- claim back ('claimed') without touching the counter or the balance; a refused reservation leaves
-- no claim behind.
CREATE FUNCTION toolrun_reserve_claimed(
  p_call_id     text,
  p_request_id  text,
  p_key_id      text,
  p_tool        text,
  p_period      text,
  p_credits     integer,
  p_allowance   integer,
  p_cap         integer,
  p_at          timestamptz,
  p_idem_key    text,
  p_fingerprint text,
  p_expires_at  timestamptz,
  OUT outcome       text, -- 'ok' | 'tier_limit' | 'insufficient_credits' | 'claimed'
  OUT credits_used  integer,
  OUT fingerprint   text,
  OUT answer_status integer,
  OUT answer_body   text
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_claimed text;
BEGIN
  -- The upsert locks a conflicting row before it evaluates the WHERE, so concurrent claims of one
  -- key queue on it and each sees the previous one's result. It takes the key over only when the
  -- claim there expired or its call ended without an answer.
  INSERT INTO idempotency_keys AS k (key_id, idem_key, fingerprint, call_id, expires_at)
  VALUES (p_key_id, p_idem_key, p_fingerprint, p_call_id, p_expires_at)
  ON CONFLICT (key_id, idem_key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, call_id = EXCLUDED.call_id,
        answer_status = NULL, answer_body = NULL, expires_at = EXCLUDED.expires_at
    WHERE k.expires_at <= p_at
       OR (k.answer_status IS NULL AND NOT EXISTS (
             SELECT 1 FROM usage_calls u WHERE u.call_id = k.call_id AND u.status = 'pending'))
  RETURNING k.call_id INTO v_claimed;
  IF NOT FOUND THEN
    outcome := 'claimed';
    SELECT k.fingerprint, k.answer_status, k.answer_body INTO fingerprint, answer_status, answer_body
    FROM idempotency_keys k WHERE k.key_id = p_key_id AND k.idem_key = p_idem_key;
    RETURN;
  END IF;
  SELECT r.outcome, r.credits_used INTO outcome, credits_used
  FROM toolrun_reserve(p_call_id, p_request_id, p_key_id, p_tool, p_period, p_credits, p_allowance,
                       p_cap, p_at) r;
  IF outcome <> 'ok' THEN
    DELETE FROM idempotency_keys k WHERE k.key_id = p_key_id AND k.idem_key = p_idem_key;
  END IF;
END;
$$;

-- Pending -> charged with the answer stored under the call's key, in one statement. Returns false
-- when the call was no longer pending (the sweep refunded it): then nothing is charged or stored.
CREATE FUNCTION toolrun_settle_answered(p_call_id text, p_http_status integer, p_answer_status integer,
                                        p_answer_body text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  UPDATE usage_calls u SET status = 'charged', http_status = p_http_status
  WHERE u.call_id = p_call_id AND u.status = 'pending';
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE idempotency_keys k SET answer_status = p_answer_status, answer_body = p_answer_body
  WHERE k.call_id = p_call_id;
  RETURN true;
END;
$$;

-- toolrun_refund with the answer stored under the call's key, in the same transaction. Lock order:
-- the usage row, counter, balance (toolrun_refund), then the claim.
CREATE FUNCTION toolrun_refund_answered(p_call_id text, p_http_status integer, p_answer_status integer,
                                        p_answer_body text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT toolrun_refund(p_call_id, p_http_status) THEN
    RETURN false;
  END IF;
  UPDATE idempotency_keys k SET answer_status = p_answer_status, answer_body = p_answer_body
  WHERE k.call_id = p_call_id;
  RETURN true;
END;
$$;
