-- Scoped keys, with the same column names as the SQLite migration of the same number: the tools a
-- key may see and call (a JSON array of slugs, as text like metadata; NULL for every tool, as
-- every existing key keeps) and its access (`full`, or `read`: the free reads and no tool call).
-- An OAuth authorization may narrow its key's tools further: its own list (NULL for the key's).
-- The triggers of api_keys and oauth_authorizations announce changes to these columns as to any.
ALTER TABLE api_keys
  ADD COLUMN tools  text,
  ADD COLUMN access text NOT NULL DEFAULT 'full' CHECK (access IN ('full', 'read'));
ALTER TABLE oauth_authorizations ADD COLUMN tools text;
