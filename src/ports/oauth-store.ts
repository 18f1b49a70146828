/**
 * The OAuth part of the storage port, in the same store as the keys (so an authorization can be
 * checked against its key in one lookup): registered clients, the authorizations a key's holder
 * approved, and what the authorization server keeps between requests. Implemented by
 * adapters/sqlite/oauth.ts and adapters/postgres/oauth.ts; both pass one contract suite
 * (test/contracts/oauth-store.contract.ts). The store never sees a token, code or session id:
 * callers hand it SHA-256 hashes.
 */
import type { ApiKeyRecord, NewAuditEntry } from "./records.ts";

/** Something the authorization server keeps under a secret id (a code, a token, an interaction). */
export interface NewOAuthArtifact {
  /** The library's model name: `AccessToken`, `AuthorizationCode`, `RefreshToken`, `Session`, ... */
  readonly model: string;
  /** SHA-256 of the id (for a token, of the token itself). */
  readonly idHash: string;
  /** The artifact as JSON, without its id. */
  readonly payload: string;
  /** The authorization it belongs to, if any: revoking that removes it too. */
  readonly grantId: string | null;
  /** A second, non-secret handle (a session's fixed uid). */
  readonly uid: string | null;
  readonly expiresAt: string;
}

export interface StoredOAuthArtifact {
  readonly payload: string;
  /** When a code was used or a refresh token rotated; null while unused. */
  readonly consumedAt: string | null;
}

/** The outcome of marking an artifact used: only one caller, across every instance, is first. */
export interface Consumption {
  /** True for the one caller that marked it; false when it was used before (or is gone). */
  readonly first: boolean;
  /** The authorization it belongs to (null when none, or the artifact is gone). */
  readonly grantId: string | null;
}

/** An authorization as the library saves it: which key pays, for which client. */
export interface NewOAuthAuthorization {
  readonly id: string;
  readonly keyId: string;
  readonly clientId: string;
  /** The library's record of it, JSON. */
  readonly payload: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface OAuthAuthorizationRecord {
  readonly id: string;
  readonly keyId: string;
  readonly clientId: string;
  readonly clientName: string | null;
  readonly payload: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** The tools the person narrowed it to at consent; null for every tool its key may use. */
  readonly tools: readonly string[] | null;
}

/** An access token found by its hash, with the live authorization and key it acts for. */
export interface OAuthTokenHolder {
  /** The token's record, JSON (its audience, scope, client). */
  readonly payload: string;
  readonly expiresAt: string;
  readonly authorizationId: string;
  readonly authorizationExpiresAt: string;
  /** The authorization's own tools (null: the key's); the token may use only those its key may too. */
  readonly authorizationTools: readonly string[] | null;
  /** The key as it is now (plan, revocation, expiry): the token acts as this account. */
  readonly key: ApiKeyRecord;
}

export interface OAuthStore {
  /** Stores a client registered by RFC 7591; ids are never reused. */
  saveOAuthClient(id: string, metadata: string, createdAt: string): Promise<void>;
  /** The registered metadata, JSON; null for an unknown id. */
  findOAuthClient(id: string): Promise<string | null>;

  /** Creates the authorization, or updates its payload and expiry (its key and client never change). */
  saveOAuthAuthorization(authorization: NewOAuthAuthorization): Promise<void>;
  /**
   * The authorization's payload while it acts for its key (bound to the key's current secret, the
   * key not revoked) and has not expired at `now`; null otherwise, so a rotated or revoked key's
   * authorizations can no longer be refreshed.
   */
  findOAuthAuthorization(id: string, now: string): Promise<string | null>;
  /**
   * Ties an authorization to the secret its key has now (SHA-256, as stored with the key) and
   * records the client's name shown at consent and the tools the person narrowed it to (null, or
   * absent: every tool the key may use). False when no such authorization of that key.
   */
  bindOAuthAuthorization(
    id: string,
    keyId: string,
    keySecretHash: string,
    clientName: string,
    tools?: readonly string[] | null,
  ): Promise<boolean>;
  /**
   * The key's authorizations that still act for it (bound to its current secret, key not revoked,
   * not expired at `now`), oldest first.
   */
  listOAuthAuthorizations(keyId: string, now: string): Promise<OAuthAuthorizationRecord[]>;
  /**
   * Removes the key's authorization with everything issued under it, with `audit` in the same
   * transaction. False when the key has no authorization with that id.
   */
  revokeOAuthAuthorization(keyId: string, id: string, audit?: NewAuditEntry): Promise<boolean>;
  /** Removes the authorization `grantId` and everything issued under it (the library's revocation). */
  revokeOAuthGrant(grantId: string): Promise<void>;

  /** Creates or replaces an artifact. */
  saveOAuthArtifact(artifact: NewOAuthArtifact): Promise<void>;
  /** The artifact while it has not expired at `now`; null otherwise. */
  findOAuthArtifact(model: string, idHash: string, now: string): Promise<StoredOAuthArtifact | null>;
  /** The unexpired artifact of this model with this uid. */
  findOAuthArtifactByUid(model: string, uid: string, now: string): Promise<StoredOAuthArtifact | null>;
  /** Marks the artifact used at `at`, atomically: exactly one caller gets `first`. */
  consumeOAuthArtifact(model: string, idHash: string, at: string): Promise<Consumption>;
  destroyOAuthArtifact(model: string, idHash: string): Promise<void>;

  /**
   * The access token with this hash and the key it acts for, in one read: null when there is no
   * such token, or its authorization is gone or no longer bound to the key's current secret.
   * Expiry and audience are the caller's to check.
   */
  findOAuthAccessToken(idHash: string): Promise<OAuthTokenHolder | null>;

  /** The secret stored under `name`, storing `candidate` first if none is (the first caller wins). */
  oauthSecret(name: string, candidate: string, at: string): Promise<string>;

  /**
   * Removes what can no longer be used at `now`: expired artifacts and authorizations,
   * authorizations whose key was rotated or revoked, what was issued under removed ones, and
   * registered clients that hold no authorization 30 days after their registration.
   * Returns how many rows went.
   */
  purgeOAuth(now: string): Promise<number>;
}
