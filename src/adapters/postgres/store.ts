/**
 * The Store port on PostgreSQL, for running several instances against one database.
 * Boundary: assembles keys.ts and oauth.ts (behind the key cache, told of changes by
 * key-changes.ts), admin-keys.ts, audit.ts, members.ts, ledger.ts (with usage.ts), calls.ts, switches.ts,
 * captures.ts, webhooks.ts and migrations.ts over one pool.
 *
 * The returned store exposes its `pool` so deps.ts can hand the same connections to
 * createPostgresRateLimiter({ pool: store.pool }); the store owns the pool and ends it in close().
 */
import type { Pool } from "pg";
import { DEFAULT_BACKEND_TIMEOUT_MS } from "../../ports/defaults.ts";
import type { Store } from "../../ports/store.ts";
import { type KeyCacheOptions, withCredentialCache } from "../key-cache.ts";
import { createAccountStore } from "./accounts.ts";
import { createAdminKeyStore } from "./admin-keys.ts";
import { createAuditLog } from "./audit.ts";
import { createCallLog } from "./calls.ts";
import { createCaptureStore } from "./captures.ts";
import { createCreditAlertStore } from "./credit-alerts.ts";
import { run, statement, transaction } from "./db.ts";
import { createJobStore } from "./jobs.ts";
import { createKeyChanges, type KeyChangeOptions } from "./key-changes.ts";
import { createKeyStore } from "./keys.ts";
import { createLedger } from "./ledger.ts";
import { createMemberStore } from "./members.ts";
import { isMigrated, migrate } from "./migrations.ts";
import { createOAuthStore } from "./oauth.ts";
import {
  createPostgresPool,
  DEFAULT_APPLICATION_NAME,
  type PostgresConnectionOptions,
  schemaName,
} from "./pool.ts";
import { createSwitchStore } from "./switches.ts";
import { createWebhookStore } from "./webhooks.ts";

export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /**
   * Remembering found keys and access tokens between lookups (adapters/key-cache.ts), on by
   * default; it needs one more connection, for LISTEN (key-changes.ts). `false` looks every key
   * and token up in the database, for example behind a pooler that does not keep LISTEN (the
   * cache would notice and stay bypassed anyway).
   */
  readonly keyCache?: false | (KeyCacheOptions & KeyChangeOptions);
}

export interface PostgresStore extends Store {
  /** The store's pool, to share with createPostgresRateLimiter; ended by close(). */
  readonly pool: Pool;
  /** Calls take three steps here, so a process that dies between them leaves one pending. */
  refundAbandoned(before: string): Promise<number>;
}

const PING = statement("ping", "SELECT 1");
const ROLLBACK = Symbol("rollback");
/** SQLSTATEs of a write refused for good: read_only_sql_transaction, insufficient_privilege. */
const READ_ONLY = new Set(["25006", "42501"]);

/**
 * Creates the store without connecting: a database that is down makes calls fail with
 * BackendUnavailableError (and recover when it returns) instead of stopping start-up.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const schema = schemaName(options);
  const pool = createPostgresPool(options);
  const changes =
    options.keyCache === false
      ? undefined
      : createKeyChanges(
          {
            url: options.url,
            schema,
            applicationName: options.applicationName ?? DEFAULT_APPLICATION_NAME,
            connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS,
            pool,
          },
          options.keyCache,
        );
  const keys = { ...createKeyStore(pool), ...createAccountStore(pool) };
  const oauth = createOAuthStore(pool);
  let closed: Promise<void> | undefined;
  const { stopRefunds, ...ledger } = createLedger(pool);
  return {
    pool,
    ...(changes ? withCredentialCache(keys, oauth, changes, options.keyCache || {}) : { ...keys, ...oauth }),
    ...createAdminKeyStore(pool),
    ...createAuditLog(pool),
    ...ledger,
    ...createCallLog(pool),
    ...createCreditAlertStore(pool),
    ...createCaptureStore(pool),
    ...createSwitchStore(pool),
    ...createWebhookStore(pool),
    ...createMemberStore(pool),
    ...createJobStore(pool),
    migrate: () => migrate(pool, schema),
    isMigrated: () => isMigrated(pool),
    async ping() {
      await run(pool, PING, []);
    },
    async probeWrite() {
      // Fails in a read-only transaction (a standby, default_transaction_read_only) or without
      // the privilege to write; changes no row, and is rolled back.
      try {
        await transaction(pool, async (client) => {
          await client.query("UPDATE schema_migrations SET version = version WHERE false");
          throw ROLLBACK;
        });
      } catch (error) {
        if (error === ROLLBACK) return "ok";
        if (READ_ONLY.has((error as { code?: unknown }).code as string)) return "read_only";
        throw error;
      }
      return "ok";
    },
    close() {
      // Idempotent: deps and tests may both close it. The listener first: its heartbeat uses the pool.
      stopRefunds();
      closed ??= (changes?.close() ?? Promise.resolve()).then(() => pool.end());
      return closed;
    },
  };
}
