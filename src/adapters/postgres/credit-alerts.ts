/**
 * Credit alerts on PostgreSQL. `credits.threshold` is written by the triggers of migration 0012 in
 * the transaction of the charge that reaches a threshold; this module writes what they read of the
 * configuration, and the month's first `insufficient_credits` refusal (`credits.depleted`).
 * Boundary: `credit_alert_settings`, `plan_allowances`, `credit_alert_marks`, and re-aiming
 * `credit_balances.next_alert_at`.
 */
import type { Pool } from "pg";
import type { CreditAlertStore } from "../../ports/store.ts";
import { alertsText, createKnownMarks } from "../alert-marks.ts";
import { run, statement, transaction } from "./db.ts";
import { appendEvents } from "./outbox.ts";

const SETTINGS = statement(
  "credit_alert_settings",
  `SELECT alerts, metering, fallback_credits,
          (SELECT coalesce(json_agg(json_build_array(p.plan, p.monthly_credits) ORDER BY p.plan), '[]'::json)
           FROM plan_allowances p) AS plans
   FROM credit_alert_settings WHERE id = 1 FOR UPDATE`,
);
const SET_SETTINGS = statement(
  "credit_alert_settings_set",
  "UPDATE credit_alert_settings SET alerts = $1, metering = $2, fallback_credits = $3 WHERE id = 1",
);
const CLEAR_PLANS = statement("credit_alert_plans_clear", "DELETE FROM plan_allowances");
const ADD_PLANS = statement(
  "credit_alert_plans_add",
  `INSERT INTO plan_allowances (plan, monthly_credits)
   SELECT plan, credits FROM unnest($1::text[], $2::bigint[]) AS p (plan, credits)`,
);
// Setting 0 makes the trigger compute each row's next threshold, firing those already reached;
// rows in the global lock order (sorted), as the calls lock them.
const REAIM = statement(
  "credit_alert_reaim",
  `UPDATE credit_balances b SET next_alert_at = 0
   FROM (SELECT account_id, period FROM credit_balances WHERE period = $1 ORDER BY account_id FOR UPDATE) AS o
   WHERE b.account_id = o.account_id AND b.period = o.period`,
);
const MARK = statement(
  "credit_alert_mark_depleted",
  `INSERT INTO credit_alert_marks (account_id, period, kind, value, at) VALUES ($1, $2, 'depleted', 0, $3)
   ON CONFLICT DO NOTHING RETURNING 1`,
);

export function createCreditAlertStore(pool: Pool): CreditAlertStore {
  const known = createKnownMarks();
  return {
    async configureCreditAlerts(wanted, period) {
      const alerts = alertsText(wanted.alerts);
      const planRows = Object.entries(wanted.planAllowances).sort(([a], [b]) => (a < b ? -1 : 1));
      await transaction(pool, async (client) => {
        // The row lock makes instances starting together write one after the other.
        const [now] = await run<{
          alerts: string;
          metering: number;
          fallback_credits: number | null;
          plans: unknown;
        }>(client, SETTINGS, []);
        if (
          now?.alerts === alerts &&
          now.metering === Number(wanted.metering) &&
          now.fallback_credits === wanted.fallbackAllowance &&
          JSON.stringify(now.plans) === JSON.stringify(planRows)
        )
          return;
        await run(client, SET_SETTINGS, [alerts, Number(wanted.metering), wanted.fallbackAllowance]);
        await run(client, CLEAR_PLANS, []);
        await run(client, ADD_PLANS, [
          planRows.map(([plan]) => plan),
          planRows.map(([, credits]) => credits),
        ]);
        await run(client, REAIM, [period]);
      });
    },
    async recordDepletion(accountId, period, at, events) {
      if (known.has(accountId, period)) return false;
      const first = await transaction(pool, async (client) => {
        const inserted = (await run(client, MARK, [accountId, period, at])).length === 1;
        if (inserted) await appendEvents(client, events);
        return inserted;
      });
      known.add(accountId, period);
      return first;
    },
  };
}
