-- Captures: addresses that catch real webhook deliveries for an account, and what they caught,
-- with the same table and column names as the PostgreSQL migration of the same number. The
-- capture's token is not stored: `token_hash` is its SHA-256. Timestamps are ISO 8601 text in UTC.
-- `account_id` is the owning account (the key's id until keys belong to accounts).
CREATE TABLE captures (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX captures_account ON captures (account_id, expires_at);
CREATE INDEX captures_expiry ON captures (expires_at);

-- One caught request per row: its request line and headers as received (`head`, CRLF-separated)
-- and its body's bytes. `seq` orders arrivals (cursors, and which one is oldest).
CREATE TABLE captured_requests (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT NOT NULL UNIQUE,
  capture_id  TEXT NOT NULL REFERENCES captures (id) ON DELETE CASCADE,
  received_at TEXT NOT NULL,
  method      TEXT NOT NULL,
  head        TEXT NOT NULL,
  body        BLOB NOT NULL
);
CREATE INDEX captured_requests_capture ON captured_requests (capture_id, seq);
