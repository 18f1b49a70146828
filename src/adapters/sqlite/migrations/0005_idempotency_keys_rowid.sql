-- idempotency_keys as a rowid table. A WITHOUT ROWID table keeps each row whole in its primary
-- key's b-tree, and SQLite reads a row's whole record, overflow pages included, to compare a key
-- against it: with stored answers of a megabyte (the webhook inspector's), every lookup of a key
-- read megabytes and took milliseconds. A rowid table keeps the key in its own index.
CREATE TABLE idempotency_keys_rowid (
  key_id        TEXT NOT NULL,
  idem_key      TEXT NOT NULL,
  fingerprint   TEXT NOT NULL,
  call_id       TEXT NOT NULL,
  answer_status INTEGER,
  answer_body   TEXT,
  expires_at    TEXT NOT NULL,
  PRIMARY KEY (key_id, idem_key)
);
INSERT INTO idempotency_keys_rowid (key_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at)
  SELECT key_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_rowid RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
