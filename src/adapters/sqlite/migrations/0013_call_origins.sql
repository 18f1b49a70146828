-- Who called, and the usage export. Same columns as the PostgreSQL migration of the same number.
--
-- Each call row records how the call came: `credential` (`key`, or the `authz_…` id of the OAuth
-- authorization), `oauth_client_id`, `transport` (`http` | `mcp`) and MCP's clientInfo
-- (`client_name`, `client_version`). Rows recorded before this migration keep them NULL: unknown.
-- No request body is stored.
ALTER TABLE usage_calls ADD COLUMN credential TEXT;
ALTER TABLE usage_calls ADD COLUMN oauth_client_id TEXT;
ALTER TABLE usage_calls ADD COLUMN transport TEXT CHECK (transport IN ('http', 'mcp'));
ALTER TABLE usage_calls ADD COLUMN client_name TEXT;
ALTER TABLE usage_calls ADD COLUMN client_version TEXT;

-- The export reads settled calls in the order they settled, so that a reservation settling after a
-- page was read comes after that page, never inside it. SQLite commits one writer at a time, so a
-- number taken in the settling transaction, one more than the largest so far, is in commit order.
-- `settled_at` is the call's `at` for a call recorded settled, the clock's time for a reservation
-- settled later. A settled call keeps both for good (a later recharge or refund changes its
-- status and credits, not its place).
ALTER TABLE usage_calls ADD COLUMN settled_seq INTEGER;
ALTER TABLE usage_calls ADD COLUMN settled_at TEXT;
UPDATE usage_calls SET settled_seq = seq, settled_at = at WHERE status <> 'pending';
CREATE UNIQUE INDEX usage_calls_settled_seq ON usage_calls (settled_seq) WHERE settled_seq IS NOT NULL;

-- The largest number is read through that index (the condition lets SQLite use it: one seek). A
-- call recorded settled takes its number in the ledger's insert; the trigger gives one to a call
-- settled later, whichever way it settles (captured, released, swept, refunded unconfirmed).
CREATE TRIGGER usage_calls_settled_on_update AFTER UPDATE OF status ON usage_calls
WHEN NEW.status <> 'pending' AND NEW.settled_seq IS NULL
BEGIN
  UPDATE usage_calls
  SET settled_seq = (SELECT coalesce(max(settled_seq), 0) + 1 FROM usage_calls WHERE settled_seq IS NOT NULL),
      settled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE seq = NEW.seq;
END;

-- The calls listing (GET /admin/v1/calls), newest first, by its common filters.
CREATE INDEX usage_calls_account_seq ON usage_calls (account_id, seq);
CREATE INDEX usage_calls_key_seq ON usage_calls (key_id, seq);
CREATE INDEX usage_calls_tool_seq ON usage_calls (tool, seq);
