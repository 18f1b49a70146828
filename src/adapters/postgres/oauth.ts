/**
 * OAuthStore on PostgreSQL, for several instances on one database. Boundary: the `oauth_*`
 * tables, and `api_keys` read (never written) to tell whether an authorization still acts for its
 * key. Using a code or rotating a refresh token is one conditional UPDATE, so exactly one request
 * across every instance wins it; the others learn it was used before.
 */
import type { Pool } from "pg";
import type { OAuthStore } from "../../ports/oauth-store.ts";
import {
  type ArtifactRow,
  AUTHORIZATION_COLUMNS,
  type AuthorizationRow,
  JOIN_ACCOUNT,
  LIVE_AUTHORIZATION,
  TOKEN_HOLDER_COLUMNS,
  type TokenHolderRow,
  toArtifact,
  toAuthorization,
  toolsText,
  toTokenHolder,
  unboundBefore,
  unusedClientsBefore,
} from "../oauth-rows.ts";
import { audited } from "./audit.ts";
import { type Queryable, run, statement, transaction } from "./db.ts";

const INSERT_CLIENT = statement(
  "oauth_client_insert",
  "INSERT INTO oauth_clients (id, metadata, created_at) VALUES ($1, $2, $3)",
);
const CLIENT = statement("oauth_client", "SELECT metadata FROM oauth_clients WHERE id = $1");
const UPSERT_AUTHORIZATION = statement(
  "oauth_authorization_upsert",
  `INSERT INTO oauth_authorizations (id, key_id, client_id, payload, created_at, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (id) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
);
const AUTHORIZATION = statement(
  "oauth_authorization",
  `SELECT a.payload FROM oauth_authorizations a JOIN api_keys k ON ${LIVE_AUTHORIZATION}
   WHERE a.id = $1 AND a.expires_at > $2`,
);
const BIND = statement(
  "oauth_authorization_bind",
  `UPDATE oauth_authorizations SET key_secret_hash = $1, client_name = $2, tools = $5
   WHERE id = $3 AND key_id = $4 RETURNING id`,
);
const LIST_LIVE = statement(
  "oauth_authorization_list",
  `SELECT ${AUTHORIZATION_COLUMNS}
   FROM oauth_authorizations a JOIN api_keys k ON ${LIVE_AUTHORIZATION}
   WHERE a.key_id = $1 AND a.expires_at > $2 ORDER BY a.created_at, a.id`,
);
const DELETE_AUTHORIZATION = statement(
  "oauth_authorization_delete",
  "DELETE FROM oauth_authorizations WHERE id = $1 AND key_id = $2 RETURNING id",
);
const DELETE_GRANT = statement("oauth_grant_delete", "DELETE FROM oauth_authorizations WHERE id = $1");
const DELETE_ISSUED = statement("oauth_issued_delete", "DELETE FROM oauth_artifacts WHERE grant_id = $1");
const UPSERT_ARTIFACT = statement(
  "oauth_artifact_upsert",
  `INSERT INTO oauth_artifacts (model, id_hash, grant_id, uid, payload, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (model, id_hash) DO UPDATE SET
     grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, payload = EXCLUDED.payload,
     expires_at = EXCLUDED.expires_at`,
);
const ARTIFACT = statement(
  "oauth_artifact",
  "SELECT payload, consumed_at FROM oauth_artifacts WHERE model = $1 AND id_hash = $2 AND expires_at > $3",
);
const ARTIFACT_BY_UID = statement(
  "oauth_artifact_by_uid",
  `SELECT payload, consumed_at FROM oauth_artifacts WHERE model = $1 AND uid = $2 AND expires_at > $3
   ORDER BY expires_at DESC LIMIT 1`,
);
// The row lock makes a second consumer wait for the first to commit, then read its mark.
const CONSUME = statement(
  "oauth_artifact_consume",
  `WITH before AS (
     SELECT consumed_at FROM oauth_artifacts WHERE model = $1 AND id_hash = $2 FOR UPDATE
   )
   UPDATE oauth_artifacts SET consumed_at = COALESCE(oauth_artifacts.consumed_at, $3)
   FROM before WHERE model = $1 AND id_hash = $2
   RETURNING before.consumed_at IS NULL AS first, grant_id`,
);
const DESTROY = statement(
  "oauth_artifact_destroy",
  "DELETE FROM oauth_artifacts WHERE model = $1 AND id_hash = $2",
);
const ACCESS_TOKEN = statement(
  "oauth_access_token",
  `SELECT ${TOKEN_HOLDER_COLUMNS}
   FROM oauth_artifacts t
   JOIN oauth_authorizations a ON a.id = t.grant_id
   JOIN api_keys k ON ${LIVE_AUTHORIZATION}
   ${JOIN_ACCOUNT}
   WHERE t.model = 'AccessToken' AND t.id_hash = $1`,
);
const SECRET = statement(
  "oauth_secret",
  `WITH made AS (
     INSERT INTO oauth_secrets (name, value, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO NOTHING RETURNING value
   )
   SELECT value FROM made UNION ALL SELECT value FROM oauth_secrets WHERE name = $1`,
);
const SECRET_READ = statement("oauth_secret_read", "SELECT value FROM oauth_secrets WHERE name = $1");
const PURGE_ARTIFACTS = statement(
  "oauth_purge_artifacts",
  "DELETE FROM oauth_artifacts WHERE expires_at <= $1 RETURNING 1",
);
const PURGE_AUTHORIZATIONS = statement(
  "oauth_purge_authorizations",
  `DELETE FROM oauth_authorizations a
   WHERE a.expires_at <= $1
      OR (a.key_secret_hash IS NULL AND a.created_at <= $2)
      OR (a.key_secret_hash IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM api_keys k WHERE ${LIVE_AUTHORIZATION}))
   RETURNING 1`,
);
const PURGE_ORPHANS = statement(
  "oauth_purge_orphans",
  `DELETE FROM oauth_artifacts t WHERE t.grant_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM oauth_authorizations a WHERE a.id = t.grant_id)
   RETURNING 1`,
);

const PURGE_CLIENTS = statement(
  "oauth_purge_clients",
  `DELETE FROM oauth_clients c WHERE c.created_at <= $1
     AND NOT EXISTS (SELECT 1 FROM oauth_authorizations a WHERE a.client_id = c.id)
   RETURNING 1`,
);

export function createOAuthStore(pool: Pool): OAuthStore {
  const revokeGrant = (db: Queryable, grantId: string) =>
    run(db, DELETE_GRANT, [grantId]).then(() => run(db, DELETE_ISSUED, [grantId]));
  return {
    async saveOAuthClient(id, metadata, createdAt) {
      await run(pool, INSERT_CLIENT, [id, metadata, createdAt]);
    },
    async findOAuthClient(id) {
      const rows = await run<{ metadata: string }>(pool, CLIENT, [id]);
      return rows[0]?.metadata ?? null;
    },
    async saveOAuthAuthorization(a) {
      await run(pool, UPSERT_AUTHORIZATION, [a.id, a.keyId, a.clientId, a.payload, a.createdAt, a.expiresAt]);
    },
    async findOAuthAuthorization(id, now) {
      const rows = await run<{ payload: string }>(pool, AUTHORIZATION, [id, now]);
      return rows[0]?.payload ?? null;
    },
    async bindOAuthAuthorization(id, keyId, keySecretHash, clientName, tools = null) {
      return (await run(pool, BIND, [keySecretHash, clientName, id, keyId, toolsText(tools)])).length === 1;
    },
    async listOAuthAuthorizations(keyId, now) {
      return (await run<AuthorizationRow>(pool, LIST_LIVE, [keyId, now])).map(toAuthorization);
    },
    async revokeOAuthAuthorization(keyId, id, audit) {
      const remove = async (db: Queryable) => {
        const found = (await run(db, DELETE_AUTHORIZATION, [id, keyId])).length;
        if (found === 1) await run(db, DELETE_ISSUED, [id]);
        return found;
      };
      // audited() makes its own transaction around the change and its entry.
      const removed =
        audit === undefined ? await transaction(pool, remove) : await audited(pool, audit, remove);
      return removed === 1;
    },
    async revokeOAuthGrant(grantId) {
      await transaction(pool, (client) => revokeGrant(client, grantId));
    },
    async saveOAuthArtifact(a) {
      await run(pool, UPSERT_ARTIFACT, [a.model, a.idHash, a.grantId, a.uid, a.payload, a.expiresAt]);
    },
    async findOAuthArtifact(model, idHash, now) {
      const rows = await run<ArtifactRow>(pool, ARTIFACT, [model, idHash, now]);
      return rows[0] ? toArtifact(rows[0]) : null;
    },
    async findOAuthArtifactByUid(model, uid, now) {
      const rows = await run<ArtifactRow>(pool, ARTIFACT_BY_UID, [model, uid, now]);
      return rows[0] ? toArtifact(rows[0]) : null;
    },
    async consumeOAuthArtifact(model, idHash, at) {
      const rows = await run<{ first: boolean; grant_id: string | null }>(pool, CONSUME, [model, idHash, at]);
      const row = rows[0];
      return row ? { first: row.first, grantId: row.grant_id } : { first: false, grantId: null };
    },
    async destroyOAuthArtifact(model, idHash) {
      await run(pool, DESTROY, [model, idHash]);
    },
    async findOAuthAccessToken(idHash) {
      const row = (await run<TokenHolderRow>(pool, ACCESS_TOKEN, [idHash]))[0];
      return row === undefined ? null : toTokenHolder(row);
    },
    async oauthSecret(name, candidate, at) {
      // A racing first insert commits after this statement's snapshot: read again, after it.
      const stored =
        (await run<{ value: string }>(pool, SECRET, [name, candidate, at]))[0] ??
        (await run<{ value: string }>(pool, SECRET_READ, [name]))[0];
      if (stored === undefined) throw new Error(`OAuth secret ${name} vanished after its insert`);
      return stored.value;
    },
    async purgeOAuth(now) {
      return transaction(
        pool,
        async (client) =>
          (await run(client, PURGE_ARTIFACTS, [now])).length +
          (await run(client, PURGE_AUTHORIZATIONS, [now, unboundBefore(now)])).length +
          (await run(client, PURGE_ORPHANS, [])).length +
          (await run(client, PURGE_CLIENTS, [unusedClientsBefore(now)])).length,
      );
    },
  };
}
