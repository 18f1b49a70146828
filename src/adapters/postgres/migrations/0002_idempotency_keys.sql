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
  -- The stored answer; NULL while the call runs. A call that ends without an answer (refunded by
  -- the sweep after its process died, or when its charge could not be confirmed) deletes its claim.
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
  SELECT r.outcome, r.credits_used INTO outcome, credits_used
  FROM toolrun_reserve(p_call_id, p_request_id, p_key_id, p_tool, p_period, p_credits, p_allowance,
                       p_cap, p_at) r;
  IF outcome <> 'ok' THEN
    DELETE FROM idempotency_keys k WHERE k.key_id = p_key_id AND k.idem_key = p_idem_key;
  END IF;
END;
$$;

-- Pending -> charged with the answer stored under the call's key. False when the call was no
-- longer pending (the sweep refunded it, deleting its claim): then nothing is charged or stored.
-- Lock order: the usage row, then the claim.
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

-- The refund of 0001 keeps its body under a new name; toolrun_refund, which every caller already
-- uses (the sweep, a charge not confirmed), becomes the answerless case of the refund below, so it
-- frees the call's idempotency key too.
ALTER FUNCTION toolrun_refund(text, integer) RENAME TO toolrun_refund_call;

-- Pending -> refunded (toolrun_refund_call: the call's usage row, counter, balance), then its
-- idempotency claim settled in the same transaction: the answer stored under it, or, without an
-- answer, the claim deleted so a retry runs. False when the call was not pending.
-- Lock order against toolrun_reserve_claimed (claim, counter, balance): a reservation holds a
-- claim row while it waits for the counter only when the claim is new or expired, so a refund
-- never waits for it unless a call outlived its key's TTL (PostgreSQL would then abort one of the
-- two as a deadlock, and its client would get a 503 to retry).
CREATE FUNCTION toolrun_refund_answered(p_call_id text, p_http_status integer, p_answer_status integer,
                                        p_answer_body text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT toolrun_refund_call(p_call_id, p_http_status) THEN
    RETURN false;
  END IF;
  IF p_answer_status IS NULL THEN
    DELETE FROM idempotency_keys k WHERE k.call_id = p_call_id AND k.answer_status IS NULL;
  ELSE
    UPDATE idempotency_keys k SET answer_status = p_answer_status, answer_body = p_answer_body
    WHERE k.call_id = p_call_id;
  END IF;
  RETURN true;
END;
$$;

CREATE FUNCTION toolrun_refund(p_call_id text, p_http_status integer)
RETURNS boolean
LANGUAGE sql VOLATILE AS $$
  SELECT toolrun_refund_answered(p_call_id, p_http_status, NULL, NULL);
$$;
