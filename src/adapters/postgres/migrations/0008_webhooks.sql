-- Webhooks: the endpoints an operator registers, the outbox of events, one delivery per event and
-- endpoint, and the log of each delivery's attempts. The same tables and columns as the SQLite
-- migration of the same number.
--
-- Events fan out when they are written: the INSERT that writes an event writes, in the same
-- transaction as the fact that caused it, one delivery for each enabled endpoint subscribed to it
-- then. An event no endpoint subscribed to is not written at all.
-- (Numbers 0006 and 0007 belong to other changes; gaps are fine.)

CREATE TABLE webhook_endpoints (
  id          text PRIMARY KEY,
  url         text NOT NULL,
  events      text[] NOT NULL,
  description text NOT NULL,
  -- `whsec_...`: kept as it is, since every delivery is signed with it.
  secret      text NOT NULL,
  enabled     boolean NOT NULL,
  -- Why it was turned off by the service (`gone`: the receiver answered 410); NULL otherwise.
  disabled_reason text,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);

CREATE TABLE webhook_events (
  -- `evt_...`: the Standard Webhooks `webhook-id`, the same on every attempt.
  id         text PRIMARY KEY,
  type       text NOT NULL,
  -- The event's `data`, a JSON object as text (sent as it was written).
  data       text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  seq           bigserial PRIMARY KEY,
  id            text NOT NULL UNIQUE,
  endpoint_id   text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id      text NOT NULL REFERENCES webhook_events (id),
  state         text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  -- When the next attempt is due; NULL once delivered or given up.
  next_attempt_at timestamptz,
  -- A deliverer's claim: until when it holds the delivery, and its token, so a deliverer whose
  -- lease ran out cannot record over the one that took the delivery over.
  lease_until   timestamptz,
  lease_token   text,
  created_at    timestamptz NOT NULL,
  delivered_at  timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint_seq ON webhook_deliveries (endpoint_id, seq);

CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  at          timestamptz NOT NULL,
  -- The receiver's status; NULL when no response came (timeout, refused connection).
  status_code integer,
  -- What went wrong, in a few words; NULL for a 2xx.
  error       text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);
