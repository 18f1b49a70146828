-- OAuth 2.1 for the MCP endpoint: the registered clients, the authorizations a key's holder
-- approved, and what the authorization server keeps between requests (codes, tokens, sign-in
-- interactions), with the same table and column names as the SQLite migration of the same number.
-- No token, code or session id is stored: `id_hash` is its SHA-256.

-- Clients registered by RFC 7591 dynamic registration (their metadata as registered, JSON).
-- Clients named by a client ID metadata document are fetched, not stored.
CREATE TABLE oauth_clients (
  id         text PRIMARY KEY,
  metadata   text NOT NULL,
  created_at timestamptz NOT NULL
);

-- One approved authorization (the library's Grant) per row: which key pays, for which client.
-- It acts for the key only while the key's secret still hashes to key_secret_hash (set when the
-- key's holder approves), so rotating or revoking the key ends it at once on every instance.
CREATE TABLE oauth_authorizations (
  id              text PRIMARY KEY,
  key_id          text NOT NULL,
  client_id       text NOT NULL,
  client_name     text,
  key_secret_hash text,
  payload         text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL
);
CREATE INDEX oauth_authorizations_key ON oauth_authorizations (key_id, created_at);

-- Codes, access and refresh tokens, sign-in interactions and sessions, by the library's model
-- name and the SHA-256 of their id. `consumed_at` marks a used code or a rotated refresh token.
CREATE TABLE oauth_artifacts (
  model       text NOT NULL,
  id_hash     text NOT NULL,
  grant_id    text,
  uid         text,
  payload     text NOT NULL,
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oauth_artifacts_grant ON oauth_artifacts (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_artifacts_uid ON oauth_artifacts (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_artifacts_expiry ON oauth_artifacts (expires_at);

-- Secrets every instance must share (the cookie and consent-form key, the signing key set),
-- made once by whichever instance needs them first.
CREATE TABLE oauth_secrets (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL
);
