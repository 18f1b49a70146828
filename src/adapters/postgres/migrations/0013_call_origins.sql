-- Who called, and the usage export. Same columns as the SQLite migration of the same number.
--
-- Each call row records how the call came: `credential` (`key`, or the `authz_…` id of the OAuth
-- authorization), `oauth_client_id`, `transport` (`http` | `mcp`) and MCP's clientInfo
-- (`client_name`, `client_version`). Rows recorded before this migration keep them NULL: unknown.
-- No request body is stored.
ALTER TABLE usage_calls
  ADD COLUMN credential text,
  ADD COLUMN oauth_client_id text,
  ADD COLUMN transport text CHECK (transport IN ('http', 'mcp')),
  ADD COLUMN client_name text,
  ADD COLUMN client_version text;

-- The export reads settled calls in the order they settled, so that a reservation settling after a
-- page was read comes after that page, never inside it. A sequence number is not enough here: two
-- transactions can take numbers in one order and commit in the other, so a reader could pass a
-- number whose row is not yet visible. Each settled row keeps instead the id of the transaction
-- that settled it (`settled_xid`), and the export orders by (settled_xid, seq) and gives only rows
-- whose transaction is older than every one still in progress (below the snapshot's xmin): any
-- row that becomes visible later has a larger transaction id than every row already given.
-- `settled_at` is the call's `at` for a call recorded settled, the transaction's time for a
-- reservation settled later. A settled call keeps both for good (a later recharge or refund
-- changes its status and credits, not its place).
ALTER TABLE usage_calls
  ADD COLUMN settled_xid xid8,
  ADD COLUMN settled_at timestamptz;
UPDATE usage_calls SET settled_xid = pg_current_xact_id(), settled_at = at WHERE status <> 'pending';
CREATE INDEX usage_calls_settled ON usage_calls (settled_xid, seq) WHERE settled_xid IS NOT NULL;

-- A trigger rather than the ledger's functions: every way a call settles (recorded settled,
-- captured, released, swept, refunded unconfirmed, recharged) passes through it.
CREATE FUNCTION toolrun_call_settled() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.settled_xid := pg_current_xact_id();
  NEW.settled_at := CASE WHEN TG_OP = 'INSERT' THEN NEW.at ELSE now() END;
  RETURN NEW;
END;
$$;
CREATE TRIGGER usage_calls_settled BEFORE INSERT OR UPDATE OF status ON usage_calls
FOR EACH ROW WHEN (NEW.status <> 'pending' AND NEW.settled_xid IS NULL)
EXECUTE FUNCTION toolrun_call_settled();

-- The calls listing (GET /admin/v1/calls), newest first, by its common filters.
CREATE INDEX usage_calls_account_seq ON usage_calls (account_id, seq DESC);
CREATE INDEX usage_calls_key_seq ON usage_calls (key_id, seq DESC);
CREATE INDEX usage_calls_tool_seq ON usage_calls (tool, seq DESC);

-- ============================================================================================
-- The ledger's functions that insert call rows gain the origin's columns (everything else as in
-- 0011_credit_grants.sql): dropped and made again with the new arguments at the end.
-- ============================================================================================
DROP FUNCTION toolrun_reserve_claimed(text, text, text, text, text, text, bigint, bigint, integer, timestamptz, text,
                                      text, timestamptz);
DROP FUNCTION toolrun_calls(text[], text[], text[], text[], text[], text[], bigint[], bigint[], integer[],
                            timestamptz[], integer[]);
DROP FUNCTION toolrun_record_call(text, text, text, text, text, text, bigint, bigint, integer, timestamptz, integer);

-- --------------------------------------------------------------------------------------------
-- toolrun_record_call: one call, on rows its transaction has locked
-- --------------------------------------------------------------------------------------------
-- Checks one call against the books as they stand and records it. p_http_status is its run's:
-- NULL records a reservation (pending, its credits and cap slot held until it is settled or
-- refunded), 200 a charged call, anything else a refunded one (counted in `calls` only). A call
-- is refused exactly when a charged one would be, whatever its run gave. Returns the account's
-- allowance used, the tool's capped calls and the grants' credits left after the call. Only
-- toolrun_calls calls it, once it holds the counter and balance rows (so the balance read beside
-- the counter it updates is the current one).
--
-- A call the allowance pays (nearly every one) takes the first branch, as before grants. Else the
-- account's live grants are locked in spend order and pay what the allowance lacks, each part
-- recorded on the call's row for its refund.
CREATE FUNCTION toolrun_record_call(
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
  p_credential      text,
  p_oauth_client_id text,
  p_transport       text,
  p_client_name     text,
  p_client_version  text,
  OUT outcome      text, -- 'pending' | 'charged' | 'refunded' | 'tier_limit' | 'insufficient_credits'
  OUT credits_used bigint,
  OUT active_calls integer,
  OUT grants_left  bigint,
  OUT grants_spent bigint  -- the part of the call's credits its grants paid
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_held integer := CASE WHEN p_http_status IS NULL OR p_http_status = 200 THEN 1 ELSE 0 END;
  v_refusal text;
  v_from_allowance bigint;
  v_owed bigint;
  v_take bigint;
  v_parts jsonb;
  v_grant record;
BEGIN
  outcome := CASE WHEN p_http_status IS NULL THEN 'pending' WHEN v_held = 1 THEN 'charged' ELSE 'refunded' END;
  grants_spent := 0;
  UPDATE tool_usage_monthly t
  SET calls = t.calls + 1, active_calls = t.active_calls + v_held, credits = t.credits + v_held * p_credits
  FROM credit_balances b
  WHERE t.account_id = p_account_id AND t.period = p_period AND t.tool = p_tool
    AND b.account_id = p_account_id AND b.period = p_period
    AND toolrun_refusal(b.used, p_credits, p_allowance, t.active_calls, p_cap) IS NULL
  RETURNING t.active_calls INTO active_calls;
  IF FOUND THEN
    UPDATE credit_balances b SET used = b.used + v_held * p_credits
    WHERE b.account_id = p_account_id AND b.period = p_period
    RETURNING b.used INTO credits_used;
    INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at,
                             credential, oauth_client_id, transport, client_name, client_version)
    VALUES (p_call_id, p_request_id, p_account_id, p_key_id, p_tool, p_period, p_credits, outcome, p_http_status, p_at,
            p_credential, p_oauth_client_id, p_transport, p_client_name, p_client_version);
    grants_left := toolrun_grants_left(p_account_id, p_at);
    RETURN;
  END IF;

  SELECT toolrun_refusal(b.used, p_credits, p_allowance, t.active_calls, p_cap), b.used, t.active_calls
  INTO v_refusal, credits_used, active_calls
  FROM credit_balances b, tool_usage_monthly t
  WHERE b.account_id = p_account_id AND b.period = p_period
    AND t.account_id = p_account_id AND t.period = p_period AND t.tool = p_tool;
  SELECT coalesce(sum(l.remaining), 0)::bigint INTO grants_left
  FROM (SELECT g.remaining FROM credit_grants g
        WHERE g.account_id = p_account_id AND g.remaining > 0 AND (g.expires_at IS NULL OR g.expires_at > p_at)
        ORDER BY g.expires_at NULLS LAST, g.created_at, g.id
        FOR UPDATE) AS l;
  v_from_allowance := least(p_credits, greatest(0, p_allowance - credits_used));
  IF v_refusal = 'tier_limit' OR p_credits - v_from_allowance > grants_left THEN
    outcome := v_refusal;
    RETURN;
  END IF;

  v_owed := v_held * (p_credits - v_from_allowance);
  FOR v_grant IN
    SELECT c.id, c.remaining FROM credit_grants c
    WHERE c.account_id = p_account_id AND c.remaining > 0 AND (c.expires_at IS NULL OR c.expires_at > p_at)
    ORDER BY c.expires_at NULLS LAST, c.created_at, c.id
  LOOP
    EXIT WHEN v_owed = 0;
    v_take := least(v_owed, v_grant.remaining);
    UPDATE credit_grants c SET remaining = c.remaining - v_take WHERE c.id = v_grant.id;
    v_parts := coalesce(v_parts, '[]'::jsonb) || jsonb_build_array(jsonb_build_object('grant', v_grant.id, 'credits', v_take));
    v_owed := v_owed - v_take;
    grants_left := grants_left - v_take;
    grants_spent := grants_spent + v_take;
  END LOOP;
  UPDATE tool_usage_monthly t
  SET calls = t.calls + 1, active_calls = t.active_calls + v_held, credits = t.credits + v_held * p_credits
  WHERE t.account_id = p_account_id AND t.period = p_period AND t.tool = p_tool
  RETURNING t.active_calls INTO active_calls;
  UPDATE credit_balances b SET used = b.used + v_held * v_from_allowance
  WHERE b.account_id = p_account_id AND b.period = p_period
  RETURNING b.used INTO credits_used;
  INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at,
                           grant_parts, credential, oauth_client_id, transport, client_name, client_version)
  VALUES (p_call_id, p_request_id, p_account_id, p_key_id, p_tool, p_period, p_credits, outcome, p_http_status, p_at,
          v_parts, p_credential, p_oauth_client_id, p_transport, p_client_name, p_client_version);
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
-- calls before it, its allowance paying it all, as is nearly always so, the batch is recorded
-- set-wise (no grant spent, each call answering what its account's grants have left): one update of its
-- counters, one of its balances, one insert of its usage rows. Otherwise, and for a single call,
-- a call at a time (toolrun_record_call), each seeing the ones before it.
CREATE FUNCTION toolrun_calls(
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
  p_http_statuses integer[], -- NULL: a reservation (pending)
  p_credentials      text[],
  p_oauth_client_ids text[],
  p_transports       text[],
  p_client_names     text[],
  p_client_versions  text[]
)
RETURNS TABLE (outcome text, credits_used bigint, active_calls integer, grants_left bigint, grants_spent bigint)
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
                  p_caps, p_ats, p_http_statuses, p_credentials, p_oauth_client_ids, p_transports, p_client_names,
                  p_client_versions)
        WITH ORDINALITY AS c(call_id, request_id, account_id, key_id, tool, period, credits, allowance, cap, at,
                             http_status, credential, oauth_client_id, transport, client_name, client_version, n)
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
      INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at,
                               credential, oauth_client_id, transport, client_name, client_version)
      SELECT c.call_id, c.request_id, c.account_id, c.key_id, c.tool, c.period, c.credits, c.status, c.http_status, c.at,
             c.credential, c.oauth_client_id, c.transport, c.client_name, c.client_version
      FROM calls c, admitted
      WHERE admitted.all_in
      ORDER BY c.n
    )
    SELECT f.status, f.used + f.held * f.credits, f.active + f.held, toolrun_grants_left(f.account_id, f.at), 0::bigint
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
      grants_left := 0;
      grants_spent := 0;
    ELSE
      SELECT r.outcome, r.credits_used, r.active_calls, r.grants_left, r.grants_spent
      INTO outcome, credits_used, active_calls, grants_left, grants_spent
      FROM toolrun_record_call(p_call_ids[i], p_request_ids[i], p_account_ids[i], p_key_ids[i], p_tools[i], p_periods[i],
                               p_credits[i], p_allowances[i], p_caps[i], p_ats[i], p_http_statuses[i],
                               p_credentials[i], p_oauth_client_ids[i], p_transports[i], p_client_names[i],
                               p_client_versions[i]) r;
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
CREATE FUNCTION toolrun_reserve_claimed(
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
  p_credential      text,
  p_oauth_client_id text,
  p_transport       text,
  p_client_name     text,
  p_client_version  text,
  OUT outcome       text, -- toolrun_calls' outcomes, or 'claimed'
  OUT credits_used  bigint,
  OUT grants_left   bigint,
  OUT grants_spent  bigint,
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
  SELECT c.outcome, c.credits_used, c.grants_left, c.grants_spent INTO outcome, credits_used, grants_left, grants_spent
  FROM toolrun_calls(ARRAY[p_call_id], ARRAY[p_request_id], ARRAY[p_account_id], ARRAY[p_key_id], ARRAY[p_tool], ARRAY[p_period],
                     ARRAY[p_credits], ARRAY[p_allowance], ARRAY[p_cap], ARRAY[p_at], ARRAY[NULL::integer],
                     ARRAY[p_credential], ARRAY[p_oauth_client_id], ARRAY[p_transport], ARRAY[p_client_name],
                     ARRAY[p_client_version]) c;
  IF outcome <> 'pending' THEN
    DELETE FROM idempotency_keys k WHERE k.account_id = p_account_id AND k.idem_key = p_idem_key;
  END IF;
END;
$$;
