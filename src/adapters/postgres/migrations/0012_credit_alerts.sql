-- Credit alerts (decisions section 21): `credits.threshold` is written by the database itself, in
-- the transaction of the charge (or the change of the account's terms) that reaches a threshold,
-- so a crash loses none and no code path that moves `used` can forget it. The same tables,
-- columns and views as the SQLite migration of the same number.
--
-- The cost on the call path is one comparison: each balance row keeps `next_alert_at`, the `used`
-- at which its next threshold fires (NULL: none left), and only an update reaching it runs the
-- trigger. Setting it to 0 re-aims the row (trigger credit_alerts_fire computes it again): on a
-- row's creation, on a change of its account's terms, and when the configuration changes.

-- The account's own thresholds, a JSON object {usedPercent?, remainingBelow?} as text; NULL, or a
-- member left out, is the configuration's.
ALTER TABLE accounts ADD COLUMN alerts text;

-- What the service's configuration says, written at start-up (configureCreditAlerts): the default
-- thresholds, whether metering is on, and the allowance of the plan an unknown plan falls back to.
CREATE TABLE credit_alert_settings (
  id               integer PRIMARY KEY CHECK (id = 1),
  alerts           text NOT NULL,
  metering         integer NOT NULL CHECK (metering IN (0, 1)),
  fallback_credits bigint
);
INSERT INTO credit_alert_settings (id, alerts, metering, fallback_credits)
VALUES (1, '{"usedPercent":[80,100],"remainingBelow":[]}', 1, NULL);

-- The configured plans' monthly allowances, written with the settings.
CREATE TABLE plan_allowances (
  plan            text PRIMARY KEY,
  monthly_credits bigint NOT NULL
);

-- A threshold that fired (or the month's first refusal, kind `depleted`): at most once per
-- account, period, kind and value, whatever `used` does afterwards.
CREATE TABLE credit_alert_marks (
  account_id text NOT NULL REFERENCES accounts (id),
  period     text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('used_percent', 'remaining_below', 'depleted')),
  value      bigint NOT NULL,
  at         timestamptz NOT NULL,
  PRIMARY KEY (account_id, period, kind, value)
);

ALTER TABLE credit_balances ADD COLUMN next_alert_at bigint;

-- An account's standing in a period: what it may use of its month's allowance (`allowance`, NULL
-- when metering is off), and what it may still spend: the allowance left and its live grants. THE
-- one place this store says what "spendable" is.
CREATE VIEW credit_standing AS
SELECT s.account_id, s.period, s.used, s.allowance,
       greatest(0, s.allowance - s.used) + toolrun_grants_left(s.account_id, now()) AS spendable,
       s.used_percent, s.remaining_below
FROM (
  SELECT b.account_id, b.period, b.used,
         CASE WHEN c.metering = 1 THEN
           coalesce(a.monthly_allowance, p.monthly_credits, c.fallback_credits)
         END AS allowance,
         coalesce(a.alerts::json -> 'usedPercent', c.alerts::json -> 'usedPercent') AS used_percent,
         coalesce(a.alerts::json -> 'remainingBelow', c.alerts::json -> 'remainingBelow') AS remaining_below
  FROM credit_balances b
  JOIN accounts a ON a.id = b.account_id
  CROSS JOIN credit_alert_settings c
  LEFT JOIN plan_allowances p ON p.plan = a.plan
) AS s;

-- Each threshold of a balance row, and the `used` at which it fires (it does not depend on `used`
-- itself, so a trigger that reads the row before or after its update finds the same).
CREATE VIEW credit_alert_lines AS
SELECT c.account_id, c.period, 'used_percent'::text AS kind, j.value::bigint AS value,
       (c.allowance * j.value::bigint + 99) / 100 AS fires_at, c.used, c.allowance, c.spendable
FROM credit_standing c, json_array_elements_text(c.used_percent) AS j (value)
WHERE c.allowance > 0
UNION ALL
SELECT c.account_id, c.period, 'remaining_below'::text AS kind, j.value::bigint AS value,
       c.used + c.spendable - j.value::bigint AS fires_at, c.used, c.allowance, c.spendable
FROM credit_standing c, json_array_elements_text(c.remaining_below) AS j (value)
WHERE c.allowance IS NOT NULL;

-- The thresholds the row's new `used` reaches and not yet marked get their mark and, for the
-- endpoints subscribed to `credits.threshold`, their event and deliveries (as outbox.ts writes
-- them); then the row is aimed at its next threshold. The event's id is the fact's, so it can
-- never be written twice. A BEFORE trigger: it reads the row as it was, which the lines allow.
-- The trigger functions keep the schema they were made in (search_path FROM CURRENT), so a change
-- made by a session on another search_path (an operator's psql) fires them the same.
CREATE FUNCTION toolrun_credit_alerts_fire() RETURNS trigger
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
DECLARE
  l record;
  v_at timestamptz := clock_timestamp();
  v_id text;
BEGIN
  FOR l IN
    SELECT * FROM credit_alert_lines c
    WHERE c.account_id = NEW.account_id AND c.period = NEW.period AND c.fires_at <= NEW.used
    ORDER BY c.fires_at, c.kind, c.value
  LOOP
    INSERT INTO credit_alert_marks (account_id, period, kind, value, at)
    VALUES (l.account_id, l.period, l.kind, l.value, v_at)
    ON CONFLICT DO NOTHING;
    CONTINUE WHEN NOT FOUND;
    v_id := 'evt_thr_' || l.account_id || '_' || l.period || '_' || l.kind || '_' || l.value;
    INSERT INTO webhook_events (id, type, data, created_at)
    SELECT v_id, 'credits.threshold',
           json_build_object('account_id', l.account_id, 'period', l.period,
                             'threshold', json_build_object('kind', l.kind, 'value', l.value),
                             'used', NEW.used, 'allowance', l.allowance,
                             'remaining', l.used + l.spendable - NEW.used)::text,
           v_at
    WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.enabled AND 'credits.threshold' = ANY (w.events))
    ON CONFLICT DO NOTHING;
    CONTINUE WHEN NOT FOUND;
    INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, created_at)
    SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), w.id, v_id, 'pending', 0, v_at, v_at
    FROM webhook_endpoints w
    WHERE w.enabled AND 'credits.threshold' = ANY (w.events)
    ORDER BY w.created_at, w.id;
  END LOOP;
  NEW.next_alert_at := (
    SELECT min(c.fires_at) FROM credit_alert_lines c
    WHERE c.account_id = NEW.account_id AND c.period = NEW.period
      AND NOT EXISTS (SELECT 1 FROM credit_alert_marks m WHERE m.account_id = c.account_id
                      AND m.period = c.period AND m.kind = c.kind AND m.value = c.value));
  RETURN NEW;
END;
$$;

CREATE TRIGGER credit_alerts_fire
BEFORE UPDATE OF used, next_alert_at ON credit_balances
FOR EACH ROW WHEN (NEW.used >= NEW.next_alert_at)
EXECUTE FUNCTION toolrun_credit_alerts_fire();

-- A new month's row is aimed at once (its first charge may already reach a threshold).
CREATE FUNCTION toolrun_credit_alerts_aim() RETURNS trigger
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE credit_balances SET next_alert_at = 0 WHERE account_id = NEW.account_id AND period = NEW.period;
  RETURN NULL;
END;
$$;

CREATE TRIGGER credit_alerts_aim
AFTER INSERT ON credit_balances
FOR EACH ROW EXECUTE FUNCTION toolrun_credit_alerts_aim();

-- A change of what the account may use or of its thresholds re-aims its current month: a
-- threshold the change reaches fires with it. The account's row is locked before its balance
-- row, which no call locks, so this order meets no call's.
CREATE FUNCTION toolrun_credit_alerts_reaim() RETURNS trigger
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE credit_balances SET next_alert_at = 0
  WHERE account_id = NEW.id AND period = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM');
  RETURN NULL;
END;
$$;

CREATE TRIGGER credit_alerts_reaim
AFTER UPDATE OF plan, monthly_allowance, alerts ON accounts
FOR EACH ROW EXECUTE FUNCTION toolrun_credit_alerts_reaim();

-- Spending from a grant leaves `used` where it is, so it re-aims the month's row itself, and only
-- for an account with `remainingBelow` thresholds (the rest have nothing a grant can reach).
CREATE FUNCTION toolrun_credit_alerts_grant_spent() RETURNS trigger
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE credit_balances b SET next_alert_at = 0
  FROM credit_standing s
  WHERE b.account_id = NEW.account_id AND b.period = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')
    AND s.account_id = b.account_id AND s.period = b.period AND json_array_length(s.remaining_below) > 0;
  RETURN NULL;
END;
$$;

CREATE TRIGGER credit_alerts_grant_spent
AFTER UPDATE OF remaining ON credit_grants
FOR EACH ROW WHEN (NEW.remaining < OLD.remaining)
EXECUTE FUNCTION toolrun_credit_alerts_grant_spent();
