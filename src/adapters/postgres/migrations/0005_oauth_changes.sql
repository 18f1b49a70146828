-- OAuth changes announced like key changes: instances remember found access tokens with the
-- authorization and key they act for (adapters/key-cache.ts), so a revoked or rewritten token or
-- authorization must reach them as a changed key does, on the same channel, whoever wrote it.
-- Statement level, as for api_keys; inserts are not announced, since only found records are
-- remembered. An upsert (INSERT ... ON CONFLICT DO UPDATE) fires the UPDATE trigger too, so each
-- step of a sign-in makes every instance forget what it remembered: sign-ins are rare next to calls.
-- (Number 0004 is the SQLite store's reservations, which PostgreSQL had from 0001.)
CREATE TRIGGER oauth_authorizations_changed
AFTER UPDATE OR DELETE OR TRUNCATE ON oauth_authorizations
FOR EACH STATEMENT EXECUTE FUNCTION toolrun_notify_key_change();

CREATE TRIGGER oauth_artifacts_changed
AFTER UPDATE OR DELETE OR TRUNCATE ON oauth_artifacts
FOR EACH STATEMENT EXECUTE FUNCTION toolrun_notify_key_change();
