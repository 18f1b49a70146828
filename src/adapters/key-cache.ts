/**
 * Found keys remembered in front of a store's KeyStore, so that the lookup every request makes
 * costs no round trip, while a revoked, rotated or changed key is refused as soon as the change is
 * known. Each backend supplies only how it learns of changes made elsewhere (KeyChanges):
 * PostgreSQL by LISTEN/NOTIFY, SQLite by `PRAGMA data_version`. Changes made through this store
 * forget everything themselves, once their statement has returned.
 *
 * A lookup remembers what it read only if nothing was forgotten, and the signal did not move, from
 * the moment it began to the moment it ended, so a read that began before a change cannot be kept
 * after the change was reported. Only found keys are kept (unknown secrets are not, so guesses
 * cannot fill memory), at most `max`; when full, all are forgotten.
 *
 * What ends with time rather than by a change (a key's expiry, the grace of a secret a rotation
 * replaced) is kept as the times it ends at, which the caller compares with its clock at every
 * request: a remembered key stops working at that moment, on every instance, with no write and
 * no signal.
 */
import type { FoundKey, KeyStore } from "../ports/store.ts";

/** How a backend tells that keys may have changed outside this store. */
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
  /** Most keys remembered (default 10,000). */
  readonly max?: number;
}

/** `keys` with found keys remembered; the caller keeps `changes`, and closes it. */
export function withKeyCache(keys: KeyStore, changes: KeyChanges, options: KeyCacheOptions = {}): KeyStore {
  const max = options.max ?? 10_000;
  const records = new Map<string, FoundKey>();
  /** The signal's version the records were read under. */
  let seen: number | null = null;
  /** Moved by every change made through this store. */
  let local = 0;

  /** The signal's version now, everything forgotten when it moved or cannot be trusted. */
  function current(): number | null {
    const version = changes.version();
    if (version === null || version !== seen) {
      records.clear();
      seen = version;
    }
    return version;
  }

  function forget(): void {
    local++;
    records.clear();
  }

  /** Runs a change to a key, then forgets every remembered key (also when its outcome is unknown). */
  const changing =
    <A extends unknown[]>(change: (...args: A) => Promise<boolean>) =>
    async (...args: A): Promise<boolean> => {
      try {
        return await change(...args);
      } finally {
        forget();
      }
    };

  return {
    ...keys,
    async findKeyByHash(secretHash) {
      const version = current();
      const hit = version === null ? undefined : records.get(secretHash);
      if (hit) return hit;
      const before = local;
      const record = await keys.findKeyByHash(secretHash);
      if (record && version !== null && current() === version && local === before) {
        if (records.size >= max) records.clear();
        records.set(secretHash, record);
      }
      return record;
    },
    revokeKey: changing(keys.revokeKey),
    rotateKey: changing(keys.rotateKey),
    updateKey: changing(keys.updateKey),
    grantCredits: changing(keys.grantCredits),
  };
}
