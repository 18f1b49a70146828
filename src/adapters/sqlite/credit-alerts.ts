/**
 * Credit alerts on SQLite. `credits.threshold` is written by the triggers of migration 0012 in the
 * transaction of the charge that reaches a threshold; this module writes what they read of the
 * configuration, and the month's first `insufficient_credits` refusal (`credits.depleted`).
 * Boundary: `credit_alert_settings`, `plan_allowances`, `credit_alert_marks`, and re-aiming
 * `credit_balances.next_alert_at`.
 */
import type { CreditAlertStore } from "../../ports/store.ts";
import { alertsText, createKnownMarks } from "../alert-marks.ts";
import type { Db } from "./db.ts";
import type { AppendEvents } from "./outbox.ts";

export function createCreditAlertStore(db: Db, appendEvents: AppendEvents): CreditAlertStore {
  const settings = db.statement<{ alerts: string; metering: number; fallback_credits: number | null }>(
    "SELECT alerts, metering, fallback_credits FROM credit_alert_settings WHERE id = 1",
  );
  const plans = db.statement<{ plan: string; monthly_credits: number }>(
    "SELECT plan, monthly_credits FROM plan_allowances ORDER BY plan",
  );
  const setSettings = db.statement(
    "UPDATE credit_alert_settings SET alerts = ?, metering = ?, fallback_credits = ? WHERE id = 1",
  );
  const clearPlans = db.statement("DELETE FROM plan_allowances");
  const addPlan = db.statement("INSERT INTO plan_allowances (plan, monthly_credits) VALUES (?, ?)");
  // Setting 0 makes the trigger compute the row's next threshold, firing those already reached.
  const reaim = db.statement("UPDATE credit_balances SET next_alert_at = 0 WHERE period = ?");
  const mark = db.statement(
    `INSERT INTO credit_alert_marks (account_id, period, kind, value, at) VALUES (?, ?, 'depleted', 0, ?)
     ON CONFLICT DO NOTHING`,
  );
  const known = createKnownMarks();

  return {
    async configureCreditAlerts(wanted, period) {
      const alerts = alertsText(wanted.alerts);
      const planRows = Object.entries(wanted.planAllowances).sort(([a], [b]) => (a < b ? -1 : 1));
      await db.write(() => {
        const now = settings.get();
        const samePlans =
          JSON.stringify(plans.all().map((p) => [p.plan, p.monthly_credits])) === JSON.stringify(planRows);
        if (
          now?.alerts === alerts &&
          now.metering === Number(wanted.metering) &&
          now.fallback_credits === wanted.fallbackAllowance &&
          samePlans
        )
          return;
        setSettings.run(alerts, Number(wanted.metering), wanted.fallbackAllowance);
        clearPlans.run();
        for (const [plan, credits] of planRows) addPlan.run(plan, credits);
        reaim.run(period);
      });
    },
    async recordDepletion(accountId, period, at, events) {
      if (known.has(accountId, period)) return false;
      const first = await db.write(() => {
        const inserted = mark.run(accountId, period, at) === 1;
        if (inserted) appendEvents(events);
        return inserted;
      });
      known.add(accountId, period);
      return first;
    },
  };
}
