-- Accounts: a customer is an account, and its keys are its credentials. The account holds what a
-- key held for itself until now: the plan, its own monthly allowance, the grant of a period, and
-- the ledger's subject (balances, per-tool monthly counters, idempotency keys); the usage record
-- keeps the key that made each call (key_id) beside the account it charged (account_id). With the
-- same table and column names as the PostgreSQL migration of the same number.
--
-- Each existing key becomes a one-key account whose id is derived from the key's (`key_X` ->
-- `acc_X`, anything else `acc_` + the id), so this is plain SQL and a key's figures stay exactly
-- as they were.

CREATE TABLE accounts (
  id                TEXT PRIMARY KEY,
  name              TEXT NOT NULL,
  plan              TEXT NOT NULL,
  -- The account's own monthly allowance instead of its plan's; NULL for the plan's.
  monthly_allowance INTEGER,
  -- A JSON object of string values.
  metadata          TEXT NOT NULL DEFAULT '{}',
  -- Credits granted on top of the allowance for granted_period (`YYYY-MM`) only; a grant in a
  -- later period replaces them. The call path reads them with the key (one join).
  granted_credits   INTEGER NOT NULL DEFAULT 0 CHECK (granted_credits >= 0),
  granted_period    TEXT,
  created_at        TEXT NOT NULL
);
CREATE INDEX accounts_created_at ON accounts (created_at, id);

INSERT INTO accounts (id, name, plan, monthly_allowance, granted_credits, granted_period, created_at)
SELECT CASE WHEN id LIKE 'key\_%' ESCAPE '\' THEN 'acc_' || substr(id, 5) ELSE 'acc_' || id END,
       name, plan, monthly_allowance, granted_credits, granted_period, created_at
FROM api_keys;

-- NOT NULL in practice (every insert names it): SQLite cannot add a NOT NULL column without a
-- default short of rebuilding the table.
ALTER TABLE api_keys ADD COLUMN account_id TEXT REFERENCES accounts (id);
UPDATE api_keys SET account_id = CASE WHEN id LIKE 'key\_%' ESCAPE '\' THEN 'acc_' || substr(id, 5) ELSE 'acc_' || id END;
ALTER TABLE api_keys DROP COLUMN plan;
ALTER TABLE api_keys DROP COLUMN monthly_allowance;
ALTER TABLE api_keys DROP COLUMN granted_credits;
ALTER TABLE api_keys DROP COLUMN granted_period;
CREATE INDEX api_keys_account ON api_keys (account_id, created_at, id);

-- The ledger's subject: the account. Rows are renamed in place (the derived id), so a key's
-- balance, counters and idempotent answers are its account's from now on.
ALTER TABLE credit_balances RENAME COLUMN key_id TO account_id;
UPDATE credit_balances SET account_id = CASE WHEN account_id LIKE 'key\_%' ESCAPE '\' THEN 'acc_' || substr(account_id, 5) ELSE 'acc_' || account_id END;
ALTER TABLE tool_usage_monthly RENAME COLUMN key_id TO account_id;
UPDATE tool_usage_monthly SET account_id = CASE WHEN account_id LIKE 'key\_%' ESCAPE '\' THEN 'acc_' || substr(account_id, 5) ELSE 'acc_' || account_id END;
ALTER TABLE idempotency_keys RENAME COLUMN key_id TO account_id;
UPDATE idempotency_keys SET account_id = CASE WHEN account_id LIKE 'key\_%' ESCAPE '\' THEN 'acc_' || substr(account_id, 5) ELSE 'acc_' || account_id END;

-- usage_calls keeps who called (key_id) and gains whom it charged; the usage report reads by account.
ALTER TABLE usage_calls ADD COLUMN account_id TEXT;
UPDATE usage_calls SET account_id = CASE WHEN key_id LIKE 'key\_%' ESCAPE '\' THEN 'acc_' || substr(key_id, 5) ELSE 'acc_' || key_id END;
DROP INDEX usage_calls_key_period_seq;
CREATE INDEX usage_calls_account_period_seq ON usage_calls (account_id, period, seq);
