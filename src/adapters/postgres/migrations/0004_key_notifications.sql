-- Every change to api_keys is announced on the channel `toolrun_api_keys` with the schema's name as
-- payload, in the changing transaction itself: PostgreSQL delivers it to every listening
-- connection when (and only if) that transaction commits. Instances that remember found keys
-- (key-cache.ts) forget them on it, whoever made the change: an instance, the CLI or plain SQL.
-- Statement level: one notification per statement (identical ones in a transaction are merged);
-- inserts are not announced, since only found keys are remembered.
CREATE FUNCTION toolrun_notify_key_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('toolrun_api_keys', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_changed
AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
FOR EACH STATEMENT EXECUTE FUNCTION toolrun_notify_key_change();
