/**
 * Found keys and access tokens remembered in front of a store's KeyStore and OAuthStore, so that
 * the lookup every request makes costs no round trip, while a revoked, rotated or changed key, and
 * a revoked token or authorization, is refused as soon as the change is known. Each backend supplies only how it learns of changes made elsewhere (KeyChanges):
 * PostgreSQL by LISTEN/NOTIFY, SQLite by `PRAGMA data_version`. Changes made through this store
 * forget everything themselves, once their statement has returned. Keys and tokens are forgotten
 * together: a token's record holds its key as it was read.
 *
 * A lookup remembers what it read only if nothing was forgotten, and the signal did not move, from
 * the moment it began to the moment it ended, so a read that began before a change cannot be kept
 * after the change was reported. Only found records are kept (unknown secrets are not, so guesses
 * cannot fill memory), at most `max` of each kind; when full, all of that kind are forgotten.
 *
 * What ends with time rather than by a change (a key's or token's expiry, the grace of a secret a
 * rotation replaced) is kept as the times it ends at, which the caller compares with its clock at every
 * request: a remembered key stops working at that moment, on every instance, with no write and
 * no signal.
 */
import type { OAuthStore, OAuthTokenHolder } from "../ports/oauth-store.ts";
import type { AccountStore, FoundKey, KeyStore } from "../ports/store.ts";

/** How a backend tells that keys or OAuth records may have changed outside this store. */
export interface KeyChanges {
  /**
   * A number that moves whenever keys may have changed elsewhere since it was last read, or null
   * while such changes cannot be seen (then nothing is answered from memory, nor kept). Read at
   * every lookup, so it must be cheap.
   */
  version(): number | null;
  /** Stops watching (a connection of its own, say). */
  close(): Promise<void>;
}

export interface KeyCacheOptions {
  /** Most keys, and most access tokens, remembered (default 10,000 each). */
  readonly max?: number;
}

type OAuthChanges = Pick<
  OAuthStore,
  | "saveOAuthAuthorization"
  | "bindOAuthAuthorization"
  | "revokeOAuthAuthorization"
  | "revokeOAuthGrant"
  | "saveOAuthArtifact"
  | "consumeOAuthArtifact"
  | "destroyOAuthArtifact"
  | "purgeOAuth"
>;

/**
 * `keys` (with their accounts, whose plan, allowance and grant a found key carries) and `oauth`
 * with found records remembered; the caller keeps `changes`, and closes it.
 */
export function withCredentialCache<O extends OAuthStore>(
  keys: KeyStore & AccountStore,
  oauth: O,
  changes: KeyChanges,
  options: KeyCacheOptions = {},
): KeyStore & AccountStore & O {
  const memory = createMemory(changes, options.max ?? 10_000);
  const found = memory.kind<FoundKey>();
  const tokens = memory.kind<OAuthTokenHolder>();
  const { changing } = memory;
  // Every change to a key or to what a token rests on goes through here, and forgets.
  const oauthChanges: OAuthChanges = {
    saveOAuthAuthorization: changing(oauth.saveOAuthAuthorization),
    bindOAuthAuthorization: changing(oauth.bindOAuthAuthorization),
    revokeOAuthAuthorization: changing(oauth.revokeOAuthAuthorization),
    revokeOAuthGrant: changing(oauth.revokeOAuthGrant),
    saveOAuthArtifact: changing(oauth.saveOAuthArtifact),
    consumeOAuthArtifact: changing(oauth.consumeOAuthArtifact),
    destroyOAuthArtifact: changing(oauth.destroyOAuthArtifact),
    purgeOAuth: changing(oauth.purgeOAuth),
  };
  return {
    ...keys,
    findKeyByHash: (secretHash) => found.lookup(secretHash, () => keys.findKeyByHash(secretHash)),
    revokeKey: changing(keys.revokeKey),
    rotateKey: changing(keys.rotateKey),
    updateKey: changing(keys.updateKey),
    updateAccount: changing(keys.updateAccount),
    ...oauth,
    findOAuthAccessToken: (idHash) => tokens.lookup(idHash, () => oauth.findOAuthAccessToken(idHash)),
    ...oauthChanges,
  };
}

/** Records of every kind remembered under one signal, and forgotten together. */
function createMemory(changes: KeyChanges, max: number) {
  const kinds: Map<string, unknown>[] = [];
  /** The signal's version the records were read under. */
  let seen: number | null = null;
  /** Moved by every change made through this store. */
  let local = 0;

  const clear = () => {
    for (const records of kinds) records.clear();
  };

  /** The signal's version now, everything forgotten when it moved or cannot be trusted. */
  function current(): number | null {
    const version = changes.version();
    if (version === null || version !== seen) {
      clear();
      seen = version;
    }
    return version;
  }

  return {
    kind<T>() {
      const records = new Map<string, T>();
      kinds.push(records);
      return {
        async lookup(hash: string, read: () => Promise<T | null>): Promise<T | null> {
          const version = current();
          const hit = version === null ? undefined : records.get(hash);
          if (hit) return hit;
          const before = local;
          const record = await read();
          if (record && version !== null && current() === version && local === before) {
            if (records.size >= max) records.clear();
            records.set(hash, record);
          }
          return record;
        },
      };
    },
    /** Runs a change, then forgets every remembered record (also when its outcome is unknown). */
    changing<A extends unknown[], R>(change: (...args: A) => Promise<R>) {
      return async (...args: A): Promise<R> => {
        try {
          return await change(...args);
        } finally {
          local++;
          clear();
        }
      };
    },
  };
}
