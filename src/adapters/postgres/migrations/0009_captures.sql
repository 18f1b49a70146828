-- Captures: addresses that catch real webhook deliveries for an account, and what they caught,
-- with the same table and column names as the SQLite migration of the same number. The capture's
-- token is not stored: `token_hash` is its SHA-256. `account_id` is the owning account (the key's
-- id until keys belong to accounts).
CREATE TABLE captures (
  id         text PRIMARY KEY,
  account_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX captures_account ON captures (account_id, expires_at);
CREATE INDEX captures_expiry ON captures (expires_at);

-- One caught request per row: its request line and headers as received (`head`, CRLF-separated)
-- and its body's bytes. `seq` orders arrivals (cursors, and which one is oldest).
CREATE TABLE captured_requests (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          text NOT NULL UNIQUE,
  capture_id  text NOT NULL REFERENCES captures (id) ON DELETE CASCADE,
  received_at timestamptz NOT NULL,
  method      text NOT NULL,
  head        text NOT NULL,
  body        bytea NOT NULL
);
CREATE INDEX captured_requests_capture ON captured_requests (capture_id, seq);
