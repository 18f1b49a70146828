-- A rotation with a grace: the secret it replaced keeps working until previous_secret_expires_at,
-- with the same column names as the SQLite migration of the same number. Only one replaced secret
-- lives: the next rotation overwrites (or, without a grace, clears) these columns, and a
-- revocation ends the grace at once. Until when it works is checked against the clock at each
-- request, so nothing needs to change in the row when the grace ends (and no notification is
-- needed: instances that remember the key check the time themselves).

-- SHA-256 of the replaced secret, NULL when the last rotation gave no grace (or none happened).
-- UNIQUE, like secret_hash, so a lookup by hash finds it through an index and names one key.
ALTER TABLE api_keys
  ADD COLUMN previous_secret_hash       text UNIQUE,
  ADD COLUMN previous_display_prefix    text,
  ADD COLUMN previous_secret_expires_at timestamptz;
