-- Webhook retention: the indexes the purge of old deliveries and events needs (the housekeeping
-- job of TOOLRUN_WEBHOOK_RETENTION_S), so it reads what it removes instead of every row. The same
-- indexes as the SQLite migration of the same number.

-- The finished deliveries by age; pending ones are never purged, so they stay out of it.
CREATE INDEX webhook_deliveries_finished_created ON webhook_deliveries (created_at) WHERE state <> 'pending';
-- Whether any delivery still refers to an event (and the foreign key's check when one is deleted).
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
CREATE INDEX webhook_events_created ON webhook_events (created_at);
