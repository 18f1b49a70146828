-- Idempotency keys (decisions.md section 11), with the same table and column names as the
-- PostgreSQL schema. A call claims its key before it runs and stores its answer in the transaction
-- that records it (adapters/sqlite/ledger.ts).
CREATE TABLE idempotency_keys (
  -- The account: the API key's id, which a rotation keeps.
  key_id        TEXT NOT NULL,
  idem_key      TEXT NOT NULL,
  -- What the call asked for (tool and body), so a retry asking for something else is told so.
  fingerprint   TEXT NOT NULL,
  call_id       TEXT NOT NULL,
  -- The stored answer; NULL while the call runs.
  answer_status INTEGER,
  answer_body   TEXT,
  expires_at    TEXT NOT NULL,
  PRIMARY KEY (key_id, idem_key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
