/**
 * The Store port on Node's built-in SQLite (`node:sqlite`), for one machine.
 * Boundary: assembles keys.ts and oauth.ts (behind the key cache, told of changes by
 * key-changes.ts), accounts.ts, admin-keys.ts, members.ts, audit.ts, ledger.ts (with usage.ts), calls.ts,
 * switches.ts, captures.ts, migrations.ts, webhooks.ts (with outbox.ts) and write-probe.ts over one
 * database file (db.ts).
 */
import type { Store } from "../../ports/store.ts";
import { withCredentialCache } from "../key-cache.ts";
import { createAccountStore } from "./accounts.ts";
import { createAdminKeyStore } from "./admin-keys.ts";
import { createAudited, createAuditLog } from "./audit.ts";
import { createCallLog } from "./calls.ts";
import { createCaptureStore } from "./captures.ts";
import { createCreditAlertStore } from "./credit-alerts.ts";
import { type OpenOptions, openDb } from "./db.ts";
import { createJobStore } from "./jobs.ts";
import { createKeyChanges } from "./key-changes.ts";
import { createKeyStore } from "./keys.ts";
import { createLedger, type LedgerOptions } from "./ledger.ts";
import { createMemberStore } from "./members.ts";
import { isMigrated, migrate } from "./migrations.ts";
import { createOAuthStore } from "./oauth.ts";
import { createAppendEvents } from "./outbox.ts";
import { createSwitchStore } from "./switches.ts";
import { createWebhookStore } from "./webhooks.ts";
import { createWriteProbe } from "./write-probe.ts";

export type SqliteStoreOptions = OpenOptions & LedgerOptions;

export function createSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const db = openDb(path, options);
  const appendEvents = createAppendEvents(db);
  const audited = createAudited(db, appendEvents);
  const ping = db.statement("SELECT 1");
  return {
    ...withCredentialCache(
      { ...createKeyStore(db, audited), ...createAccountStore(db, audited) },
      createOAuthStore(db, audited),
      createKeyChanges(db.dataVersion),
    ),
    ...createAdminKeyStore(db, audited),
    ...createAuditLog(db),
    ...createLedger(db, options),
    ...createCallLog(db),
    ...createCreditAlertStore(db, appendEvents),
    ...createCaptureStore(db),
    ...createSwitchStore(db, audited),
    ...createWebhookStore(db, audited, appendEvents),
    ...createMemberStore(db, audited),
    ...createJobStore(db, appendEvents),
    migrate: async () => migrate(db, path === ":memory:"),
    isMigrated: async () => isMigrated(db),
    async ping() {
      ping.get();
    },
    probeWrite: createWriteProbe(db, path),
    async close() {
      db.close();
    },
  };
}
