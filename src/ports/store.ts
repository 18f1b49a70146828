/**
 * The storage port: API keys, the credit ledger, the usage record, the operator switches, OAuth
 * (oauth-store.ts) and webhooks (webhook-store.ts).
 * Implemented by adapters/sqlite and adapters/postgres; both pass the same contract suite
 * (test/contracts/store.contract.ts). Every money-like change is atomic inside the adapter.
 */
import type { CallLog, CallOrigin } from "./call-log.ts";
import type { Actor, ApiKeyRecord, KeyAccess, NewAuditEntry } from "./records.ts";

export { KEY_ACCESS } from "./records.ts";
export type { Actor, ApiKeyRecord, KeyAccess, NewAuditEntry };

/** A key found by the hash of a secret, and which of its secrets that was. */
export interface FoundKey extends ApiKeyRecord {
  /**
   * `current`: the key's secret. `previous`: the one its last rotation replaced, which works only
   * until `previousSecretExpiresAt`.
   */
  readonly matched: "current" | "previous";
}

/** A new secret for a key. */
export interface KeyRotation {
  readonly secretHash: string;
  readonly displayPrefix: string;
  /** Until when the replaced secret keeps working; null: it stops at once. */
  readonly previousSecretExpiresAt: string | null;
}

import type { CaptureStore } from "./capture-store.ts";
import type { JobStore } from "./job-store.ts";
import type { MemberStore } from "./member-store.ts";
import type { OAuthStore } from "./oauth-store.ts";
import type { NewWebhookEvent, WebhookStore } from "./webhook-store.ts";

export interface NewApiKey {
  readonly id: string;
  readonly name: string;
  readonly secretHash: string;
  readonly displayPrefix: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  /** null: every tool. */
  readonly tools: readonly string[] | null;
  readonly access: KeyAccess;
  /** The account the key spends for: an existing one, or `newAccount`'s id. */
  readonly accountId: string;
  /**
   * The key's own one-key account (id `accountId`), created with the key in one transaction; absent
   * when the key joins an existing account.
   */
  readonly newAccount?: OneKeyAccount;
}

/** What a one-key account made with its key takes from the request (its name is the key's). */
export interface OneKeyAccount {
  readonly plan: string;
  /** null: the plan's allowance. */
  readonly monthlyAllowance: number | null;
}

/** Members of a key an operator may change; absent ones stay as they are. */
export interface KeyChange {
  readonly name?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** null: never expires. */
  readonly expiresAt?: string | null;
  /** null: every tool. */
  readonly tools?: readonly string[] | null;
  readonly access?: KeyAccess;
}

export interface NewAccount {
  /** `acc_` + 16 base62. */
  readonly id: string;
  readonly name: string;
  readonly plan: string;
  /** The account's own monthly allowance; null: the plan's. */
  readonly monthlyAllowance: number | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAt: string;
}

export interface AccountRecord extends NewAccount {
  /** How many keys the account has, revoked ones included. */
  readonly keyCount: number;
  /** The account's own thresholds of `credits.threshold`; null: the configuration's. */
  readonly alerts: AccountAlerts | null;
}

/** The thresholds of `credits.threshold` (decisions section 21). */
export interface CreditAlerts {
  /** Percentages of the month's allowance used, integers from 1 to 100, ascending. */
  readonly usedPercent: readonly number[];
  /** Spendable credits at or below which to alert, ascending. */
  readonly remainingBelow: readonly number[];
}

/** An account's own thresholds: a member left out is the configuration's. */
export type AccountAlerts = Partial<CreditAlerts>;

/** What the database needs of the configuration to fire `credits.threshold` by itself. */
export interface CreditAlertSettings {
  readonly alerts: CreditAlerts;
  /** Off: no account has an allowance, so none is alerted. */
  readonly metering: boolean;
  /** Each configured plan's monthly allowance. */
  readonly planAllowances: Readonly<Record<string, number>>;
  /** The allowance of the plan an account whose plan is not configured falls back to. */
  readonly fallbackAllowance: number | null;
}

/**
 * Credit alerts. The stores write `credits.threshold` themselves, in the transaction of the charge
 * that reaches a threshold (each at most once per account and period); these are the two things
 * they are told.
 */
export interface CreditAlertStore {
  /**
   * Records the configuration's thresholds and allowances (at start-up); when they changed, the
   * balances of `period` are aimed again, and thresholds they already reach fire now.
   */
  configureCreditAlerts(settings: CreditAlertSettings, period: string): Promise<void>;
  /**
   * Records the account's first `insufficient_credits` refusal of `period`, with `events`
   * (`credits.depleted`) in the same transaction; true when this was the first. Costs no write
   * once the period's is recorded (remembered, or found marked).
   */
  recordDepletion(
    accountId: string,
    period: string,
    at: string,
    events: readonly NewWebhookEvent[],
  ): Promise<boolean>;
}

/** Members of an account an operator may change; absent ones stay as they are. */
export interface AccountChange {
  readonly name?: string;
  readonly plan?: string;
  /** null: back to the plan's allowance. */
  readonly monthlyAllowance?: number | null;
  readonly metadata?: Readonly<Record<string, string>>;
  /** null: back to the configuration's thresholds. */
  readonly alerts?: AccountAlerts | null;
}

/** Accounts are listed oldest first; a page starts after the last account of the previous one. */
export interface AccountPage {
  readonly limit: number;
  readonly after: { readonly createdAt: string; readonly id: string } | null;
}

/** Accounts, which own the plan, the allowance, the grants and the ledger; `audit` as for KeyStore. */
export interface AccountStore {
  createAccount(account: NewAccount, audit?: NewAuditEntry): Promise<void>;
  getAccount(id: string): Promise<AccountRecord | null>;
  /** One page of accounts, oldest first. */
  listAccounts(page: AccountPage): Promise<AccountRecord[]>;
  /** The account's keys oldest first, or one page of them. */
  listAccountKeys(accountId: string, page?: KeyPage): Promise<ApiKeyRecord[]>;
  /** Applies the members of `change` in one statement. False when no such account. */
  updateAccount(id: string, change: AccountChange, audit?: NewAuditEntry): Promise<boolean>;
  /**
   * Gives the account a grant, with `audit` and the webhook `events` it causes in the same
   * transaction, written only when the grant is created. null when no such account; created false
   * when the account already has a grant of that reference (that grant, unchanged: a reference
   * never grants twice, even from two instances at once).
   */
  addGrant(
    accountId: string,
    grant: NewGrant,
    audit?: NewAuditEntry,
    events?: readonly NewWebhookEvent[],
  ): Promise<{ grant: GrantRecord; created: boolean } | null>;
  /** The account's grants live at `at` (not expired) with credits left, in spend order. */
  listGrants(accountId: string, at: string): Promise<GrantRecord[]>;
}

export type GrantCategory = "paid" | "promotional";
export const GRANT_CATEGORIES: readonly GrantCategory[] = ["paid", "promotional"];

/**
 * Credits given to an account apart from its monthly allowance. A call spends the month's
 * allowance first, then the live grants by earliest `expiresAt` (never-expiring last), then oldest;
 * a refund gives each credit back to the pool it came from. What a grant has left is gone at
 * `expiresAt`.
 */
export interface NewGrant {
  /** `grt_` + 16 base62. */
  readonly id: string;
  readonly credits: number;
  /** null: never expires. */
  readonly expiresAt: string | null;
  readonly category: GrantCategory;
  /** The payment or campaign it stands for; unique per account when set. */
  readonly reference: string | null;
  readonly createdAt: string;
}

export interface GrantRecord extends NewGrant {
  readonly accountId: string;
  /** Credits not spent yet. */
  readonly remaining: number;
}

/** Keys are listed oldest first; a page starts after the last key of the previous one. */
export interface KeyPage {
  readonly limit: number;
  readonly after: { readonly createdAt: string; readonly id: string } | null;
}

/**
 * The most credits an account's allowance may be, its plan's or its own (the configuration and the
 * admin API hold to it), and the most one grant may be. The stores add them exactly (64-bit
 * integers, read back as numbers checked against Number.MAX_SAFE_INTEGER).
 */
export const MAX_ALLOWANCE = 2_147_483_647;
export const MAX_GRANTED_CREDITS = 2_000_000_000;

/**
 * The changes an operator makes take the audit entry that records them (`audit`): written in the
 * same transaction as the change, and only when the change is made, so the audit log never misses
 * a change that happened nor holds one that did not. Without it (tests, the first-start key) no
 * entry is written.
 */
export interface KeyStore {
  /** False (nothing written) when the key joins an account that does not exist. */
  createKey(key: NewApiKey, audit?: NewAuditEntry): Promise<boolean>;
  /**
   * Creates `key` only if no key exists yet, atomically against every other process on the same
   * database (instances starting together on an empty one create one key between them). False
   * when a key existed.
   */
  createFirstKey(key: NewApiKey): Promise<boolean>;
  /**
   * The key whose secret, or the secret its last rotation replaced with a grace, hashes to
   * `secretHash`: revoked, expired or past its grace or not (whether it may be used now is the
   * caller's to decide, against its clock).
   */
  findKeyByHash(secretHash: string): Promise<FoundKey | null>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  /** Every key oldest first, or one page of them. */
  listKeys(page?: KeyPage): Promise<ApiKeyRecord[]>;
  countKeys(): Promise<number>;
  /**
   * Revokes the key at `at`; the grace of a secret a rotation replaced ends then too. False when
   * no such key, or it was already revoked. `events` (`key.revoked`) go to the webhook outbox in
   * the same transaction, only when the key is revoked.
   */
  revokeKey(
    id: string,
    at: string,
    audit?: NewAuditEntry,
    events?: readonly NewWebhookEvent[],
  ): Promise<boolean>;
  /**
   * Replaces the secret. With `previousSecretExpiresAt`, the replaced secret goes on matching (as
   * `previous`) and any secret an earlier rotation left matching stops at once: one replaced
   * secret at most. Without, no old secret matches. False when no such active key.
   */
  rotateKey(id: string, rotation: KeyRotation, audit?: NewAuditEntry): Promise<boolean>;
  /** Applies the members of `change` in one statement. False when no such active key. */
  updateKey(id: string, change: KeyChange, audit?: NewAuditEntry): Promise<boolean>;
}

export interface AdminKeyRecord {
  readonly id: string;
  readonly name: string;
  readonly displayPrefix: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export interface NewAdminKey {
  readonly id: string;
  readonly name: string;
  readonly secretHash: string;
  readonly displayPrefix: string;
  readonly createdAt: string;
}

/** Keys of the admin API, apart from customer keys (they never share a table or a lookup); `audit` as for KeyStore. */
export interface AdminKeyStore {
  createAdminKey(key: NewAdminKey, audit?: NewAuditEntry): Promise<void>;
  findAdminKeyByHash(secretHash: string): Promise<AdminKeyRecord | null>;
  listAdminKeys(): Promise<AdminKeyRecord[]>;
  /** False when no such key, or it was already revoked. */
  revokeAdminKey(id: string, at: string, audit?: NewAuditEntry): Promise<boolean>;
}

export interface AuditEntry extends NewAuditEntry {
  /** Decimal sequence number, growing with every entry. */
  readonly seq: string;
}

export interface AuditQuery {
  readonly limit: number;
  /** `nextCursor` of a previous page (a decimal sequence number); null for the newest entries. */
  readonly cursor: string | null;
  /** Only entries about this target. */
  readonly target?: string;
}

export interface AuditPage {
  /** Newest first. */
  readonly entries: readonly AuditEntry[];
  readonly nextCursor: string | null;
}

/** The append-only record of every admin and CLI action, written with the changes it records. */
export interface AuditLog {
  listAudit(query: AuditQuery): Promise<AuditPage>;
}

/** A request to hold credits for one call before the tool runs. */
export interface Reservation {
  /** Server-generated id of this call, unique across calls. */
  readonly callId: string;
  /** The client-visible correlation id (may repeat across calls). */
  readonly requestId: string;
  /** The account charged: its balance, tool counters and idempotency keys. */
  readonly accountId: string;
  /** The key that made the call, recorded with it. */
  readonly keyId: string;
  readonly tool: string;
  /** Calendar month in UTC, `YYYY-MM`. */
  readonly period: string;
  readonly credits: number;
  /**
   * Credits of the period's allowance the account may use (its grants come on top); null when
   * metering is off (never refused, nothing spent from grants).
   */
  readonly allowance: number | null;
  /** Most calls of this tool the account may make this period; null for no cap. */
  readonly monthlyCallCap: number | null;
  readonly at: string;
  /** The client's Idempotency-Key for this call, when it sent one. */
  readonly idempotency?: IdempotencyClaim;
  /** Who called and how, written on the call's row; absent: unknown (recorded as nulls). */
  readonly origin?: CallOrigin;
}

/** A call's claim on an idempotency key of its account, taken atomically with its reservation. */
export interface IdempotencyClaim {
  /** The client's key, unique per account (Reservation.accountId). */
  readonly key: string;
  /** A hash of what the call asked for (slug and body): a retry must ask for the same. */
  readonly fingerprint: string;
  /** When the stored answer may be forgotten; a claim past it is free for a new call. */
  readonly expiresAt: string;
}

/** The answer a call that ran gave, kept for the retries of its idempotency key. */
export interface StoredAnswer {
  readonly status: number;
  /** The answer's JSON text, as the core wrote it. */
  readonly body: string;
}

/** What another call already holds under an idempotency key: its answer, or null while it runs. */
export interface IdempotentRecord {
  readonly fingerprint: string;
  readonly answer: StoredAnswer | null;
}

export type RefusalReason = "insufficient_credits" | "tier_limit";

/** What running a tool gave: its result, or the HTTP status its failure ends the call with. */
export type WorkResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly httpStatus: number; readonly error: unknown };

/**
 * What an account can spend, once a call is recorded (or as it stood when the call was refused):
 * `creditsUsed`, the credits of the period's allowance used; `grantsLeft`, what its grants live at
 * the call's moment have left.
 */
export interface Standing {
  readonly creditsUsed: number;
  readonly grantsLeft: number;
}

/** How a metered call ended, with the account's standing after it. */
export type CallOutcome<T> =
  | ({ readonly status: "charged"; readonly value: T } & Standing)
  | ({
      readonly status: "refunded";
      readonly httpStatus: number;
      readonly error: unknown;
    } & Standing)
  | ({ readonly status: "refused"; readonly reason: RefusalReason } & Standing)
  /** The idempotency key is held by another call (running, answered, or for something else). */
  | { readonly status: "claimed"; readonly existing: IdempotentRecord };

/** A call that ran: the outcomes whose answer an idempotency key keeps. */
export type RanOutcome<T> = Extract<CallOutcome<T>, { status: "charged" | "refunded" }>;

/**
 * The answer a call with an idempotency key keeps under it once it ran (pure, like work), or
 * undefined when none is kept for that outcome: the key is then freed, so a retry runs again.
 */
export type AnswerOf<T> = (outcome: RanOutcome<T>) => StoredAnswer | undefined;

export type CallStatus = "pending" | "charged" | "refunded";

export interface UsageCall {
  readonly callId: string;
  readonly requestId: string;
  /** The key that made the call. */
  readonly keyId: string;
  readonly tool: string;
  readonly status: CallStatus;
  /** HTTP status the call ended with; null while pending. */
  readonly httpStatus: number | null;
  readonly credits: number;
  readonly at: string;
}

export interface UsageQuery {
  readonly accountId: string;
  readonly period: string;
  readonly limit: number;
  /**
   * `nextCursor` of a previous page (a decimal sequence number); null for the newest calls.
   * Anything else makes usage() reject with InvalidCursorError.
   */
  readonly cursor: string | null;
}

export interface UsageReport {
  /** Credits of the allowance held by pending and charged calls this period (Ledger.creditsUsed). */
  readonly creditsUsed: number;
  /** Every call recorded this period, refunded ones included (they cost 0). */
  readonly calls: number;
  readonly byTool: readonly { readonly tool: string; readonly calls: number; readonly credits: number }[];
  /** Newest first. */
  readonly recent: readonly UsageCall[];
  /** The decimal sequence number the next page starts below; null on the last page. */
  readonly nextCursor: string | null;
}

export interface Ledger {
  /**
   * One metered call, the way the pipeline makes it: checks the tool's cap and the allowance,
   * runs `work`, and records the call charged (its credits held), or refunded when work failed.
   * A refused call records nothing and its work's result is never delivered; work is not run when
   * the refusal is plain beforehand (the balance or the cap read before running already refuses).
   * The promise settles only once the outcome is durable, so a result is never delivered
   * uncharged. `work` must be pure, and may be asynchronous (a worker thread runs it): an adapter
   * never runs it inside an atomic unit, but before the unit that checks and charges it (calls
   * without an idempotency key: run, then one transaction for the rest), or between steps of its
   * own (calls with one: reserve, claiming the key, then run, then capture or release, as
   * runReservedCall does). A tool's failure is a WorkResult; work
   * rejects only when it could not run at all (its worker stopped), and the call then ends with
   * that rejection, charging nothing and keeping no claim.
   *
   * With `reservation.idempotency`, the key is claimed before anything else: a live claim of
   * another call gives `claimed` (nothing charged, work not run), with a null answer while that
   * call runs. Otherwise the call is reserved (its credits held, so a refusal comes before work
   * runs), then runs, and the answer `answerOf` gives is stored under the key in the same commit
   * as the charge or the refund, so neither is ever kept without the other; when it gives none,
   * the key is freed in that commit instead. A refusal keeps no claim. A claim whose call ended without an answer (its process
   * died, its charge not confirmed) is free again after the store's abandon time at the latest.
   */
  runCall<T>(
    reservation: Reservation,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
    answerOf?: AnswerOf<T>,
  ): Promise<CallOutcome<T>>;
  /**
   * One metered call of a tool that acts outside the service (`effects: "external"`), whose work
   * must never run for a call the books then refuse: reserve, run, then capture or release. The
   * reservation (the idempotency key claimed when there is one, the cap and the allowance checked,
   * the call recorded `pending` with its credits and cap slot held) is durable before `work`
   * starts; a refusal or another call's claim ends the call there, with the outcomes of runCall,
   * and work never runs. Then work runs, outside any atomic unit and however long it takes; its
   * success captures the call (charged, the answer stored under the key in the same commit), its
   * failure releases it (refunded, given back, the answer stored likewise). Work that rejects
   * releases it with no answer kept and the claim freed, and the call ends with that rejection.
   *
   * Work that succeeded acted outside: the call is charged exactly once, whatever it takes. A
   * capture that fails or whose commit is not confirmed (the store stalled, locked, or its answer
   * lost) is tried again until it commits, and one found committed already charges nothing more;
   * the promise settles only then, so the call waits for the store rather than answer 503. A
   * capture that finds its call released by the abandon sweep charges it again (its credits and
   * cap slot held again, past the allowance if need be) and keeps its answer under its key, unless
   * a retry with that key has taken the key over since: that retry answers for the effect (the
   * upstream saw the same key), and this call charges nothing and rejects with CallAbandonedError.
   * Only a store being closed stops the retries (the call stays pending, for the sweep). A
   * reservation its process never settled (it died) is released by refundAbandoned, and its claim
   * is freed by then.
   */
  runReservedCall<T>(
    reservation: Reservation,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
    answerOf?: AnswerOf<T>,
  ): Promise<CallOutcome<T>>;
  /** Forgets the idempotency keys that expired at or before `now`. Returns how many. */
  purgeExpiredAnswers(now: string): Promise<number>;
  /** Credits of the period's allowance the account holds by pending and charged calls (its grants apart). */
  creditsUsed(accountId: string, period: string): Promise<number>;
  usage(query: UsageQuery): Promise<UsageReport>;
  /**
   * Releases the reservations still pending that began before `before`: their process died (or
   * lost the store) between the reservation and its capture. Idempotent and safe to run from
   * several processes at once. Returns how many it released. A call of a tool with effects outside
   * still being captured by a live process is released too, and charged again by its capture
   * (runReservedCall): the sweep cannot tell it from a dead one, and the books end the same.
   * The reservation of a live job whose lease held at `before` is kept: the job's instance renews
   * the lease while it runs, however long; once it lapsed, or the job ended, it is released.
   */
  refundAbandoned(before: string): Promise<number>;
}

export interface ToolSwitch {
  readonly enabled?: boolean;
  readonly api?: boolean;
}

export interface SwitchStore {
  getSwitches(): Promise<ReadonlyMap<string, ToolSwitch>>;
  /** Merges the given members into the tool's stored switch. */
  setSwitch(slug: string, change: ToolSwitch, audit?: NewAuditEntry): Promise<void>;
}

/**
 * What a write probe found: `ok`; `locked`, another process holds the write lock for now (writes
 * wait for it, up to the store's timeout); `read_only`, the store can be read but not written (a
 * read-only file, filesystem or database, a revoked privilege); `full`, its disk has no room left.
 */
export type WriteState = "ok" | "locked" | "read_only" | "full";

export interface Store
  extends KeyStore,
    AccountStore,
    AdminKeyStore,
    AuditLog,
    Ledger,
    CallLog,
    CreditAlertStore,
    SwitchStore,
    OAuthStore,
    CaptureStore,
    WebhookStore,
    MemberStore,
    JobStore {
  /**
   * Applies pending migrations and returns the versions it applied (none when the schema was up
   * to date). Safe to run again and from several processes.
   */
  migrate(): Promise<readonly number[]>;
  /** True when the schema is at the version this code expects. */
  isMigrated(): Promise<boolean>;
  /** Throws when the backend cannot be reached. */
  ping(): Promise<void>;
  /**
   * Whether the store takes writes now (WriteState). Changes nothing: the probe's statement is
   * rolled back. Needs the schema; throws when the backend cannot be reached.
   */
  probeWrite(): Promise<WriteState>;
  close(): Promise<void>;
}
