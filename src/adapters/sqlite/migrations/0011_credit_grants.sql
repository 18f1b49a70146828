-- Grants that last: credits given to an account apart from its monthly allowance, each with its own
-- expiry (NULL: never), category and reference (the same reference never grants twice on one
-- account). A call spends the month's allowance first, then the live grants by earliest expiry
-- (never-expiring last), then oldest (adapters/sqlite/ledger-statements.ts). With the same table
-- and column names as the PostgreSQL migration of the same number.
CREATE TABLE credit_grants (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  credits    INTEGER NOT NULL CHECK (credits > 0),
  -- What is left to spend; a refund gives back what its call took, so it never passes `credits`.
  remaining  INTEGER NOT NULL CHECK (remaining >= 0 AND remaining <= credits),
  -- ISO 8601 in UTC, as every timestamp here; the grant is gone at this moment.
  expires_at TEXT,
  category   TEXT NOT NULL CHECK (category IN ('paid', 'promotional')),
  reference  TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX credit_grants_reference ON credit_grants (account_id, reference) WHERE reference IS NOT NULL;
-- The live grants of an account in spend order.
CREATE INDEX credit_grants_spend ON credit_grants (account_id, expires_at IS NULL, expires_at, created_at, id)
  WHERE remaining > 0;

-- Where each call's credits came from: the allowance part is `credits` less the grant parts, which
-- are a JSON array of {"grant": id, "credits": n} (NULL: the allowance alone, nearly every call).
-- A refund gives each part back to its pool.
ALTER TABLE usage_calls ADD COLUMN grant_parts TEXT;

-- Each account's grant becomes a promotional grant expiring at the end of its month (one of an
-- earlier month is expired at once, as it lapsed before). `credit_balances.used` now counts the
-- allowance alone: the part of the month's balance past the account's own allowance was spent from
-- the grant, so it moves there. An account on its plan's allowance (not in the database) keeps its
-- grant whole and its balance as it was.
INSERT INTO credit_grants (id, account_id, credits, remaining, expires_at, category, reference, created_at)
SELECT 'grt_m' || substr(a.id, 5, 15), a.id, a.granted_credits,
       a.granted_credits - CASE WHEN a.monthly_allowance IS NULL THEN 0
         ELSE min(a.granted_credits, max(0, coalesce(b.used, 0) - a.monthly_allowance)) END,
       strftime('%Y-%m-%dT%H:%M:%fZ', a.granted_period || '-01', '+1 month'),
       'promotional', NULL, a.created_at
FROM accounts a
LEFT JOIN credit_balances b ON b.account_id = a.id AND b.period = a.granted_period
WHERE a.granted_credits > 0 AND a.granted_period IS NOT NULL;
UPDATE credit_balances
SET used = used - (SELECT min(a.granted_credits, credit_balances.used - a.monthly_allowance)
                   FROM accounts a WHERE a.id = credit_balances.account_id)
WHERE EXISTS (SELECT 1 FROM accounts a
              WHERE a.id = credit_balances.account_id AND a.granted_credits > 0
                AND a.granted_period = credit_balances.period AND a.monthly_allowance IS NOT NULL
                AND credit_balances.used > a.monthly_allowance);
ALTER TABLE accounts DROP COLUMN granted_credits;
ALTER TABLE accounts DROP COLUMN granted_period;
