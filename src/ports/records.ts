/**
 * The records the storage ports share: an API key as stored, and an audit entry with its actor.
 * Apart from store.ts so that each part of the port (keys, OAuth) can name them without importing
 * the others.
 */

export interface ApiKeyRecord {
  readonly id: string;
  /** The account the key is a credential of: it spends that account's balance. */
  readonly accountId: string;
  /** The account's name (read with the key, like its terms). */
  readonly accountName: string;
  readonly name: string;
  /** The plan and allowance below are the account's, read with the key. */
  readonly plan: string;
  /** Non-secret beginning of the key, safe to show (`tr_live_AbC1…`). */
  readonly displayPrefix: string;
  /** The account's own monthly allowance, overriding the plan's; null to use the plan's. */
  readonly monthlyAllowance: number | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** From this moment the key answers 401 (expired); null for never. */
  readonly expiresAt: string | null;
  /** The operator's own labels (customer ids and the like): string values, never secrets. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * The non-secret beginning of the secret the last rotation replaced, when that rotation let it
   * work on for a grace; null otherwise.
   */
  readonly previousDisplayPrefix: string | null;
  /**
   * Until when that replaced secret works (the caller checks it against its clock at each request,
   * so nothing changes in the store when the grace ends); null when no replaced secret works.
   */
  readonly previousSecretExpiresAt: string | null;
  /** The tools the key may see and call (slugs); null for every tool. */
  readonly tools: readonly string[] | null;
  /** `read`: the free reads only, never a tool call; `full`: everything its tools allow. */
  readonly access: KeyAccess;
  /**
   * The OAuth authorization this record was presented through, when it came from an access token
   * (never stored: the token's verifier sets it on its copy, as it narrows `tools`).
   */
  readonly via?: OAuthVia;
}

/** The OAuth authorization a key acts through: its shown `authz_…` id and its client. */
export interface OAuthVia {
  readonly authorizationId: string;
  readonly clientId: string | null;
}

/** What a key may do with the tools it sees: `full`, or `read` (free reads, no tool call). */
export type KeyAccess = "full" | "read";
export const KEY_ACCESS: readonly KeyAccess[] = ["full", "read"];

/**
 * Who did something: an admin key (its id), the CLI (the operating-system user running it), or a
 * member signed in to the console (its id).
 */
export interface Actor {
  readonly type: "admin_key" | "cli" | "member";
  readonly id: string;
}

export interface NewAuditEntry {
  readonly at: string;
  readonly actor: Actor;
  /** `keys.create`, `keys.update`, `credits.grant`, `tools.set`, ... */
  readonly action: string;
  /** What it was done to: a key id, an admin key id, a tool slug. */
  readonly target: string;
  /** The admin request's id; null for the CLI. */
  readonly requestId: string | null;
  /** What changed; never a secret. */
  readonly details: Readonly<Record<string, unknown>>;
}
