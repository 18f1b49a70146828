-- Scoped keys, with the same column names as the PostgreSQL migration of the same number: the
-- tools a key may see and call (a JSON array of slugs; NULL for every tool, as every existing key
-- keeps) and its access (`full`, or `read`: the free reads and no tool call). An OAuth
-- authorization may narrow its key's tools further: its own list (NULL for the key's).
ALTER TABLE api_keys ADD COLUMN tools TEXT;
ALTER TABLE api_keys ADD COLUMN access TEXT NOT NULL DEFAULT 'full' CHECK (access IN ('full', 'read'));
ALTER TABLE oauth_authorizations ADD COLUMN tools TEXT;
