/**
 * Rows of the `oauth_*` tables both SQL stores share (same names, see their migrations), turned
 * into the OAuth port's records, written once for SQLite and PostgreSQL.
 */
import type {
  OAuthAuthorizationRecord,
  OAuthTokenHolder,
  StoredOAuthArtifact,
} from "../ports/oauth-store.ts";
import { iso, KEY_COLUMNS, type KeyRow, type Timestamp, toKeyRecord } from "./sql-rows.ts";

export { JOIN_ACCOUNT } from "./sql-rows.ts";

/**
 * The join of an authorization `a` to its key `k` that holds only while the authorization still
 * acts for the key: bound to the key's current secret, and the key not revoked.
 */
export const LIVE_AUTHORIZATION =
  "k.id = a.key_id AND k.secret_hash = a.key_secret_hash AND k.revoked_at IS NULL";

/** How long an authorization saved but never bound to a key (a consent that stopped half-way) is kept. */
const UNBOUND_GRACE_MS = 60 * 60 * 1000;

/** The time at or before which a purge at `now` drops an authorization never bound to a key. */
export function unboundBefore(now: string): string {
  return new Date(Date.parse(now) - UNBOUND_GRACE_MS).toISOString();
}

/**
 * How long a registered client that holds no authorization is kept: registration is open to
 * anyone, and a client that never signed anyone in (or whose authorizations all ended) is only
 * a row. A chat host meeting the removed client's id registers again.
 */
export const UNUSED_CLIENT_DAYS = 30;

/** The time at or before which a purge at `now` drops a registered client that holds no authorization. */
export function unusedClientsBefore(now: string): string {
  return new Date(Date.parse(now) - UNUSED_CLIENT_DAYS * 24 * 3600 * 1000).toISOString();
}

/** What an authorization's listing selects from `a`, in AuthorizationRow's shape. */
export const AUTHORIZATION_COLUMNS =
  "a.id, a.key_id, a.client_id, a.client_name, a.payload, a.created_at, a.expires_at, a.tools";

export interface AuthorizationRow {
  id: string;
  key_id: string;
  client_id: string;
  client_name: string | null;
  payload: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  tools: string | null;
}

/** A list of tool slugs as the `tools` columns hold it: JSON text, NULL for no narrowing. */
export function toolsText(tools: readonly string[] | null): string | null {
  return tools === null ? null : JSON.stringify(tools);
}

function toolsOf(text: string | null): string[] | null {
  return text === null ? null : (JSON.parse(text) as string[]);
}

export function toAuthorization(row: AuthorizationRow): OAuthAuthorizationRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    clientId: row.client_id,
    clientName: row.client_name,
    payload: row.payload,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    tools: toolsOf(row.tools),
  };
}

export interface ArtifactRow {
  payload: string;
  consumed_at: Timestamp | null;
}

export function toArtifact(row: ArtifactRow): StoredOAuthArtifact {
  return { payload: row.payload, consumedAt: row.consumed_at === null ? null : iso(row.consumed_at) };
}

/**
 * What an access token's lookup selects: the token `t`, its authorization `a`, the key `k` and its
 * account `ac` (JOIN_ACCOUNT).
 */
export const TOKEN_HOLDER_COLUMNS = `t.payload AS t_payload, t.expires_at AS t_expires_at, a.id AS a_id,
  a.expires_at AS a_expires_at, a.tools AS a_tools, ${KEY_COLUMNS}`;

export type TokenHolderRow = KeyRow & {
  t_payload: string;
  t_expires_at: Timestamp;
  a_id: string;
  a_expires_at: Timestamp;
  a_tools: string | null;
};

export function toTokenHolder(row: TokenHolderRow): OAuthTokenHolder {
  return {
    payload: row.t_payload,
    expiresAt: iso(row.t_expires_at),
    authorizationId: row.a_id,
    authorizationExpiresAt: iso(row.a_expires_at),
    authorizationTools: toolsOf(row.a_tools),
    key: toKeyRecord(row),
  };
}
