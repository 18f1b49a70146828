-- Webhooks: the endpoints an operator registers, the outbox of events, one delivery per event and
-- endpoint, and the log of each delivery's attempts. The same tables and columns as the
-- PostgreSQL migration of the same number.
--
-- Events fan out when they are written: the INSERT that writes an event writes, in the same
-- transaction as the fact that caused it, one delivery for each enabled endpoint subscribed to it
-- then. An event no endpoint subscribed to is not written at all.

CREATE TABLE webhook_endpoints (
  id          TEXT PRIMARY KEY,
  url         TEXT NOT NULL,
  -- A JSON array of event types.
  events      TEXT NOT NULL,
  description TEXT NOT NULL,
  -- `whsec_...`: kept as it is, since every delivery is signed with it.
  secret      TEXT NOT NULL,
  enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  -- Why it was turned off by the service (`gone`: the receiver answered 410); NULL otherwise.
  disabled_reason TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

CREATE TABLE webhook_events (
  -- `evt_...`: the Standard Webhooks `webhook-id`, the same on every attempt.
  id         TEXT PRIMARY KEY,
  type       TEXT NOT NULL,
  -- The event's `data`, a JSON object.
  data       TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE webhook_deliveries (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  endpoint_id   TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id      TEXT NOT NULL REFERENCES webhook_events (id),
  state         TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts      INTEGER NOT NULL DEFAULT 0,
  -- When the next attempt is due; NULL once delivered or given up.
  next_attempt_at TEXT,
  -- A deliverer's claim: until when it holds the delivery, and its token, so a deliverer whose
  -- lease ran out cannot record over the one that took the delivery over.
  lease_until   TEXT,
  lease_token   TEXT,
  created_at    TEXT NOT NULL,
  delivered_at  TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint_seq ON webhook_deliveries (endpoint_id, seq);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  at          TEXT NOT NULL,
  -- The receiver's status; NULL when no response came (timeout, refused connection).
  status_code INTEGER,
  -- What went wrong, in a few words; NULL for a 2xx.
  error       TEXT,
  duration_ms INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);
