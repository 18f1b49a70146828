/**
 * OAuthStore on SQLite. Boundary: the `oauth_*` tables, and `api_keys` read (never written) to
 * tell whether an authorization still acts for its key. Every statement is atomic on its own;
 * the few multi-statement changes run in one IMMEDIATE transaction, so processes sharing the file
 * see each other's changes whole.
 */

import type { OAuthStore } from "../../ports/oauth-store.ts";
import type { NewAuditEntry } from "../../ports/store.ts";
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
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";

export function createOAuthStore(db: Db, audited: Audited): OAuthStore {
  const insertClient = db.statement("INSERT INTO oauth_clients (id, metadata, created_at) VALUES (?, ?, ?)");
  const client = db.statement<{ metadata: string }>("SELECT metadata FROM oauth_clients WHERE id = ?");
  const upsertAuthorization = db.statement(
    `INSERT INTO oauth_authorizations (id, key_id, client_id, payload, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at`,
  );
  const authorization = db.statement<{ payload: string }>(
    `SELECT a.payload FROM oauth_authorizations a JOIN api_keys k ON ${LIVE_AUTHORIZATION}
     WHERE a.id = ? AND a.expires_at > ?`,
  );
  const bind = db.statement(
    "UPDATE oauth_authorizations SET key_secret_hash = ?, client_name = ?, tools = ? WHERE id = ? AND key_id = ?",
  );
  const listLive = db.statement<AuthorizationRow>(
    `SELECT ${AUTHORIZATION_COLUMNS}
     FROM oauth_authorizations a JOIN api_keys k ON ${LIVE_AUTHORIZATION}
     WHERE a.key_id = ? AND a.expires_at > ? ORDER BY a.created_at, a.id`,
  );
  const deleteAuthorization = db.statement("DELETE FROM oauth_authorizations WHERE id = ? AND key_id = ?");
  const deleteGrant = db.statement("DELETE FROM oauth_authorizations WHERE id = ?");
  const deleteIssued = db.statement("DELETE FROM oauth_artifacts WHERE grant_id = ?");
  const upsertArtifact = db.statement(
    `INSERT INTO oauth_artifacts (model, id_hash, grant_id, uid, payload, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (model, id_hash) DO UPDATE SET
       grant_id = excluded.grant_id, uid = excluded.uid, payload = excluded.payload,
       expires_at = excluded.expires_at`,
  );
  const artifact = db.statement<ArtifactRow>(
    "SELECT payload, consumed_at FROM oauth_artifacts WHERE model = ? AND id_hash = ? AND expires_at > ?",
  );
  const artifactByUid = db.statement<ArtifactRow>(
    `SELECT payload, consumed_at FROM oauth_artifacts WHERE model = ? AND uid = ? AND expires_at > ?
     ORDER BY expires_at DESC LIMIT 1`,
  );
  const consumeState = db.statement<{ consumed_at: string | null; grant_id: string | null }>(
    "SELECT consumed_at, grant_id FROM oauth_artifacts WHERE model = ? AND id_hash = ?",
  );
  const consume = db.statement(
    "UPDATE oauth_artifacts SET consumed_at = ? WHERE model = ? AND id_hash = ? AND consumed_at IS NULL",
  );
  const destroy = db.statement("DELETE FROM oauth_artifacts WHERE model = ? AND id_hash = ?");
  const accessToken = db.statement<TokenHolderRow>(
    `SELECT ${TOKEN_HOLDER_COLUMNS}
     FROM oauth_artifacts t
     JOIN oauth_authorizations a ON a.id = t.grant_id
     JOIN api_keys k ON ${LIVE_AUTHORIZATION}
     ${JOIN_ACCOUNT}
     WHERE t.model = 'AccessToken' AND t.id_hash = ?`,
  );
  const insertSecret = db.statement(
    "INSERT INTO oauth_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
  );
  const secret = db.statement<{ value: string }>("SELECT value FROM oauth_secrets WHERE name = ?");
  const purgeArtifacts = db.statement("DELETE FROM oauth_artifacts WHERE expires_at <= ?");
  const purgeAuthorizations = db.statement(
    `DELETE FROM oauth_authorizations AS a
     WHERE a.expires_at <= ?1
        OR (a.key_secret_hash IS NULL AND a.created_at <= ?2)
        OR (a.key_secret_hash IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM api_keys k WHERE ${LIVE_AUTHORIZATION}))`,
  );
  const purgeOrphans = db.statement(
    `DELETE FROM oauth_artifacts WHERE grant_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM oauth_authorizations a WHERE a.id = oauth_artifacts.grant_id)`,
  );

  const purgeClients = db.statement(
    `DELETE FROM oauth_clients AS c WHERE c.created_at <= ?
       AND NOT EXISTS (SELECT 1 FROM oauth_authorizations a WHERE a.client_id = c.id)`,
  );

  const revokeGrant = (grantId: string): number => deleteGrant.run(grantId) + deleteIssued.run(grantId);

  return {
    async saveOAuthClient(id, metadata, createdAt) {
      insertClient.run(id, metadata, createdAt);
    },
    async findOAuthClient(id) {
      return client.get(id)?.metadata ?? null;
    },
    async saveOAuthAuthorization(a) {
      upsertAuthorization.run(a.id, a.keyId, a.clientId, a.payload, a.createdAt, a.expiresAt);
    },
    async findOAuthAuthorization(id, now) {
      return authorization.get(id, now)?.payload ?? null;
    },
    async bindOAuthAuthorization(id, keyId, keySecretHash, clientName, tools = null) {
      return bind.run(keySecretHash, clientName, toolsText(tools), id, keyId) === 1;
    },
    async listOAuthAuthorizations(keyId, now) {
      return listLive.all(keyId, now).map(toAuthorization);
    },
    async revokeOAuthAuthorization(keyId, id, audit?: NewAuditEntry) {
      const remove = () => {
        const found = deleteAuthorization.run(id, keyId);
        if (found === 1) deleteIssued.run(id);
        return found;
      };
      // audited() makes its own transaction around the change and its entry.
      const removed = audit === undefined ? db.transaction(remove) : audited(remove, audit);
      return removed === 1;
    },
    async revokeOAuthGrant(grantId) {
      db.transaction(() => revokeGrant(grantId));
    },
    async saveOAuthArtifact(a) {
      upsertArtifact.run(a.model, a.idHash, a.grantId, a.uid, a.payload, a.expiresAt);
    },
    async findOAuthArtifact(model, idHash, now) {
      const row = artifact.get(model, idHash, now);
      return row ? toArtifact(row) : null;
    },
    async findOAuthArtifactByUid(model, uid, now) {
      const row = artifactByUid.get(model, uid, now);
      return row ? toArtifact(row) : null;
    },
    async consumeOAuthArtifact(model, idHash, at) {
      return db.transaction(() => {
        const state = consumeState.get(model, idHash);
        if (state === undefined) return { first: false, grantId: null };
        return { first: consume.run(at, model, idHash) === 1, grantId: state.grant_id };
      });
    },
    async destroyOAuthArtifact(model, idHash) {
      destroy.run(model, idHash);
    },
    async findOAuthAccessToken(idHash) {
      const row = accessToken.get(idHash);
      return row === undefined ? null : toTokenHolder(row);
    },
    async oauthSecret(name, candidate, at) {
      insertSecret.run(name, candidate, at);
      const stored = secret.get(name);
      if (stored === undefined) throw new Error(`OAuth secret ${name} vanished after its insert`);
      return stored.value;
    },
    async purgeOAuth(now) {
      return db.transaction(
        () =>
          purgeArtifacts.run(now) +
          purgeAuthorizations.run(now, unboundBefore(now)) +
          purgeOrphans.run() +
          purgeClients.run(unusedClientsBefore(now)),
      );
    },
  };
}
