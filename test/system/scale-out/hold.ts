/**
 * Test instrumentation for the crash tests: a trigger in the throwaway schema that holds the
 * settlements (pending -> charged) made by the sessions named `victimApp` for `seconds`, and names
 * each held session `held:<request id>` meanwhile, so a test can see which calls are there and kill
 * the instance while they are.
 */
export function holdSettlements(victimApp: string, seconds: number): string {
  return `
    CREATE FUNCTION hold_victim_settle() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF OLD.status = 'pending' AND NEW.status = 'charged'
         AND current_setting('application_name') = '${victimApp}' THEN
        PERFORM set_config('application_name', 'held:' || NEW.request_id, true);
        PERFORM pg_sleep(${seconds});
      END IF;
      RETURN NEW;
    END $fn$;
    CREATE TRIGGER hold_victim_settle BEFORE UPDATE ON usage_calls
      FOR EACH ROW EXECUTE FUNCTION hold_victim_settle();`;
}
