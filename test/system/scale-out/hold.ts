/**
 * Test instrumentation for the crash tests: a trigger in the throwaway schema that holds the
 * charges made by the sessions named `victimApp` for `seconds`: a settlement (pending -> charged,
 * a call with an idempotency key) or a call recorded charged by its one statement (a call without,
 * alone or in a batch). It names each held session `held:<request id>` meanwhile (the first held
 * call of its transaction; the others of a batch wait with it), so a test can see which calls are
 * there and kill the instance while they are. The renaming also makes a transaction sleep once.
 */
export function holdSettlements(victimApp: string, seconds: number): string {
  return `
    CREATE FUNCTION hold_victim_settle() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF NEW.status = 'charged' AND current_setting('application_name') = '${victimApp}' THEN
        IF TG_OP = 'INSERT' OR OLD.status = 'pending' THEN
          PERFORM set_config('application_name', 'held:' || NEW.request_id, true);
          PERFORM pg_sleep(${seconds});
        END IF;
      END IF;
      RETURN NEW;
    END $fn$;
    CREATE TRIGGER hold_victim_settle BEFORE INSERT OR UPDATE ON usage_calls
      FOR EACH ROW EXECUTE FUNCTION hold_victim_settle();`;
}
