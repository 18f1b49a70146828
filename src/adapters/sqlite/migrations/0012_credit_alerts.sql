-- Credit alerts (decisions section 21): `credits.threshold` is written by the database itself, in
-- the transaction of the charge (or the change of the account's terms) that reaches a threshold,
-- so a crash loses none and no code path that moves `used` can forget it. The same tables,
-- columns and views as the PostgreSQL migration of the same number.
--
-- The cost on the call path is one comparison: each balance row keeps `next_alert_at`, the `used`
-- at which its next threshold fires (NULL: none left), and only an update reaching it runs the
-- trigger. Setting it to 0 re-aims the row (trigger credit_alerts_fire computes it again): on a
-- row's creation, on a change of its account's terms, and when the configuration changes.

-- The account's own thresholds, a JSON object {usedPercent?, remainingBelow?}; NULL, or a member
-- left out, is the configuration's.
ALTER TABLE accounts ADD COLUMN alerts TEXT;

-- What the service's configuration says, written at start-up (configureCreditAlerts): the default
-- thresholds, whether metering is on, and the allowance of the plan an unknown plan falls back to.
CREATE TABLE credit_alert_settings (
  id               INTEGER PRIMARY KEY CHECK (id = 1),
  alerts           TEXT NOT NULL,
  metering         INTEGER NOT NULL CHECK (metering IN (0, 1)),
  fallback_credits INTEGER
);
INSERT INTO credit_alert_settings (id, alerts, metering, fallback_credits)
VALUES (1, '{"usedPercent":[80,100],"remainingBelow":[]}', 1, NULL);

-- The configured plans' monthly allowances, written with the settings.
CREATE TABLE plan_allowances (
  plan            TEXT PRIMARY KEY,
  monthly_credits INTEGER NOT NULL
);

-- A threshold that fired (or the month's first refusal, kind `depleted`): at most once per
-- account, period, kind and value, whatever `used` does afterwards.
CREATE TABLE credit_alert_marks (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  period     TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('used_percent', 'remaining_below', 'depleted')),
  value      INTEGER NOT NULL,
  at         TEXT NOT NULL,
  PRIMARY KEY (account_id, period, kind, value)
) WITHOUT ROWID;

ALTER TABLE credit_balances ADD COLUMN next_alert_at INTEGER;

-- An account's standing in a period: what it may use of its month's allowance (`allowance`, NULL
-- when metering is off), and what it may still spend: the allowance left and its live grants. THE
-- one place this store says what "spendable" is.
CREATE VIEW credit_standing AS
SELECT s.account_id, s.period, s.used, s.allowance,
       max(0, s.allowance - s.used) + (
         SELECT coalesce(sum(g.remaining), 0) FROM credit_grants g
         WHERE g.account_id = s.account_id AND g.remaining > 0
           AND (g.expires_at IS NULL OR g.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))) AS spendable,
       s.used_percent, s.remaining_below
FROM (
  SELECT b.account_id, b.period, b.used,
         CASE WHEN c.metering = 1 THEN
           coalesce(a.monthly_allowance, p.monthly_credits, c.fallback_credits)
         END AS allowance,
         coalesce(a.alerts -> '$.usedPercent', c.alerts -> '$.usedPercent') AS used_percent,
         coalesce(a.alerts -> '$.remainingBelow', c.alerts -> '$.remainingBelow') AS remaining_below
  FROM credit_balances b
  JOIN accounts a ON a.id = b.account_id
  CROSS JOIN credit_alert_settings c
  LEFT JOIN plan_allowances p ON p.plan = a.plan
) AS s;

-- Each threshold of a balance row, and the `used` at which it fires (it does not depend on `used`
-- itself, so a trigger that reads the row before or after its update finds the same).
CREATE VIEW credit_alert_lines AS
SELECT c.account_id, c.period, 'used_percent' AS kind, j.value AS value,
       (c.allowance * j.value + 99) / 100 AS fires_at, c.used, c.allowance, c.spendable
FROM credit_standing c, json_each(c.used_percent) AS j
WHERE c.allowance > 0
UNION ALL
SELECT c.account_id, c.period, 'remaining_below' AS kind, j.value AS value,
       c.used + c.spendable - j.value AS fires_at, c.used, c.allowance, c.spendable
FROM credit_standing c, json_each(c.remaining_below) AS j
WHERE c.allowance IS NOT NULL;

-- The thresholds reached and not yet marked get their mark and, for the endpoints subscribed to
-- `credits.threshold`, their event and deliveries (as outbox.ts writes them); then the row is
-- aimed at its next threshold. The event's id is the fact's, so it can never be written twice.
-- (NOT EXISTS rather than OR IGNORE: the conflict policy of the statement that fires a trigger
-- overrides the trigger's own.)
CREATE TRIGGER credit_alerts_fire AFTER UPDATE OF used, next_alert_at ON credit_balances
WHEN NEW.used >= NEW.next_alert_at
BEGIN
  INSERT INTO webhook_events (id, type, data, created_at)
  SELECT 'evt_thr_' || l.account_id || '_' || l.period || '_' || l.kind || '_' || l.value, 'credits.threshold',
         json_object('account_id', l.account_id, 'period', l.period,
                     'threshold', json_object('kind', l.kind, 'value', l.value),
                     'used', NEW.used, 'allowance', l.allowance, 'remaining', l.used + l.spendable - NEW.used),
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM credit_alert_lines l
  WHERE l.account_id = NEW.account_id AND l.period = NEW.period AND l.fires_at <= NEW.used
    AND NOT EXISTS (SELECT 1 FROM credit_alert_marks m WHERE m.account_id = l.account_id
                    AND m.period = l.period AND m.kind = l.kind AND m.value = l.value)
    AND EXISTS (SELECT 1 FROM webhook_endpoints w
                WHERE w.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = 'credits.threshold'))
    AND NOT EXISTS (SELECT 1 FROM webhook_events e
                    WHERE e.id = 'evt_thr_' || l.account_id || '_' || l.period || '_' || l.kind || '_' || l.value);
  INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, created_at)
  SELECT 'dlv_' || lower(hex(randomblob(16))), w.id, e.id, 'pending', 0, e.created_at, e.created_at
  FROM credit_alert_lines l
  JOIN webhook_events e ON e.id = 'evt_thr_' || l.account_id || '_' || l.period || '_' || l.kind || '_' || l.value
  CROSS JOIN webhook_endpoints w
  WHERE l.account_id = NEW.account_id AND l.period = NEW.period AND l.fires_at <= NEW.used
    AND NOT EXISTS (SELECT 1 FROM credit_alert_marks m WHERE m.account_id = l.account_id
                    AND m.period = l.period AND m.kind = l.kind AND m.value = l.value)
    AND w.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = 'credits.threshold')
  ORDER BY l.fires_at, w.created_at, w.id;
  INSERT INTO credit_alert_marks (account_id, period, kind, value, at)
  SELECT l.account_id, l.period, l.kind, l.value, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM credit_alert_lines l
  WHERE l.account_id = NEW.account_id AND l.period = NEW.period AND l.fires_at <= NEW.used
    AND NOT EXISTS (SELECT 1 FROM credit_alert_marks m WHERE m.account_id = l.account_id
                    AND m.period = l.period AND m.kind = l.kind AND m.value = l.value);
  UPDATE credit_balances SET next_alert_at = (
    SELECT min(l.fires_at) FROM credit_alert_lines l
    WHERE l.account_id = NEW.account_id AND l.period = NEW.period
      AND NOT EXISTS (SELECT 1 FROM credit_alert_marks m WHERE m.account_id = l.account_id
                      AND m.period = l.period AND m.kind = l.kind AND m.value = l.value))
  WHERE account_id = NEW.account_id AND period = NEW.period;
END;

-- A new month's row is aimed at once (its first charge may already reach a threshold).
CREATE TRIGGER credit_alerts_aim AFTER INSERT ON credit_balances
BEGIN
  UPDATE credit_balances SET next_alert_at = 0 WHERE account_id = NEW.account_id AND period = NEW.period;
END;

-- A change of what the account may use or of its thresholds re-aims its current month: a
-- threshold the change reaches fires with it.
CREATE TRIGGER credit_alerts_reaim
AFTER UPDATE OF plan, monthly_allowance, alerts ON accounts
BEGIN
  UPDATE credit_balances SET next_alert_at = 0
  WHERE account_id = NEW.id AND period = strftime('%Y-%m', 'now');
END;

-- Spending from a grant leaves `used` where it is, so it re-aims the month's row itself, and only
-- for an account with `remainingBelow` thresholds (the rest have nothing a grant can reach).
CREATE TRIGGER credit_alerts_grant_spent AFTER UPDATE OF remaining ON credit_grants
WHEN NEW.remaining < OLD.remaining
BEGIN
  UPDATE credit_balances SET next_alert_at = 0
  WHERE account_id = NEW.account_id AND period = strftime('%Y-%m', 'now')
    AND EXISTS (SELECT 1 FROM credit_standing s
                WHERE s.account_id = NEW.account_id AND s.period = strftime('%Y-%m', 'now')
                  AND json_array_length(s.remaining_below) > 0);
END;
