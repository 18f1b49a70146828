/**
 * How a PostgreSQL store learns that keys changed elsewhere (KeyChanges, for the key cache of
 * adapters/key-cache.ts), trusted only while this instance is provably told of every change to
 * `api_keys`, `accounts` (whose terms a found key carries), `oauth_authorizations` and
 * `oauth_artifacts`. Boundary: one LISTEN connection of its
 * own plus one pool statement per heartbeat.
 *
 * How a change reaches every instance: a statement-level trigger on `api_keys` (migrations/
 * 0001_schema.sql), on `accounts` (0006_accounts.sql) and on the OAuth tables (0005_oauth_changes.sql) runs
 * `pg_notify('toolrun_api_keys', <schema>)` inside the writing transaction, whoever the writer is
 * (this store, another instance, the CLI, plain SQL). PostgreSQL delivers it on commit to every
 * listening connection; each instance's version then moves.
 *
 * When the version may be trusted: only while the listener is confirmed up. It is confirmed by a
 * ping (a NOTIFY on a channel of this instance's own, sent through the pool) that came back over
 * the listener; a ping goes out every `heartbeatMs` and must come back before the next one is due.
 * A listener error or end, or a ping not back in time, marks it down: the version is null until a
 * new listener has been confirmed (it is reopened by a lookup, at most once per `retryMs`). So a
 * silently dead connection (dropped by the network, or a pooler that does not keep LISTEN) is
 * noticed within two heartbeats, and never trusted before a ping.
 *
 * What "at once" means here: a lookup on another instance refuses a revoked or rotated key from the
 * moment that instance has received the notification, usually well under a millisecond after the
 * commit on a healthy network, but not synchronously with the writer's commit.
 */
import { randomBytes } from "node:crypto";
import { Client, type Pool } from "pg";
import type { KeyChanges } from "../key-cache.ts";

/** The channel the trigger notifies; the payload is the schema whose `api_keys` changed. */
export const KEY_CHANNEL = "toolrun_api_keys";

export type KeyChangeEvent = "up" | "down" | "invalidated";

export interface KeyChangeOptions {
  /** Every this many ms a ping goes over the listener; it must be back before the next (default 2000). */
  readonly heartbeatMs?: number;
  /** Least time between two attempts to (re)open the listener (default 1000). */
  readonly retryMs?: number;
  /** Told when the listener is confirmed up, goes down, or a change moves the version. */
  readonly onEvent?: (event: KeyChangeEvent, err?: unknown) => void;
}

export interface KeyChangeConnection {
  readonly url: string;
  readonly schema: string;
  readonly applicationName: string;
  readonly connectTimeoutMs: number;
  readonly pool: Pool;
}

const PING = "SELECT pg_notify($1, $2)";

export function createKeyChanges(
  connection: KeyChangeConnection,
  options: KeyChangeOptions = {},
): KeyChanges {
  const heartbeatMs = options.heartbeatMs ?? 2000;
  const retryMs = options.retryMs ?? 1000;
  const onEvent = options.onEvent ?? (() => {});
  // Unique per instance, so pings go to this listener only. Lower case: LISTEN folds identifiers.
  const pingChannel = `toolrun_ping_${randomBytes(8).toString("hex")}`;

  /** Moved by every change reported and every listener state change. */
  let epoch = 0;
  let confirmed = false;
  let closed = false;
  let listener: Client | undefined;
  let lastAttempt = Number.NEGATIVE_INFINITY;
  let heartbeat: NodeJS.Timeout | undefined;
  /** Payload of the ping not yet back; undefined when none is out. */
  let outstanding: string | undefined;
  let pings = 0;

  /** Marks `client` down and closes it; a no-op for a listener already replaced or closed. */
  function down(client: Client, err?: unknown): Promise<void> {
    if (client !== listener) return Promise.resolve();
    listener = undefined;
    const wasConfirmed = confirmed;
    confirmed = false;
    outstanding = undefined;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
    epoch++;
    client.removeAllListeners("notification");
    if (wasConfirmed || err !== undefined) onEvent("down", err);
    // The "error" listener stays, so a late socket error is not thrown from the EventEmitter.
    return client.end().catch(() => {});
  }

  function ping(client: Client): void {
    if (client !== listener) return;
    if (outstanding !== undefined) {
      void down(client, new Error("key change listener: heartbeat not delivered in time"));
      return;
    }
    const payload = String(++pings);
    outstanding = payload;
    connection.pool.query(PING, [pingChannel, payload]).catch((err: unknown) => void down(client, err));
  }

  function onNotification(client: Client, channel: string, payload: string | undefined): void {
    if (client !== listener) return;
    if (channel === KEY_CHANNEL) {
      if (payload === connection.schema) {
        epoch++;
        onEvent("invalidated");
      }
      return;
    }
    if (channel !== pingChannel || payload !== outstanding) return;
    outstanding = undefined;
    if (confirmed) return;
    // First ping back: from now on every committed change reaches this listener.
    epoch++;
    confirmed = true;
    onEvent("up");
  }

  async function open(): Promise<void> {
    const client = new Client({
      connectionString: connection.url,
      application_name: connection.applicationName,
      connectionTimeoutMillis: connection.connectTimeoutMs,
      keepAlive: true,
    });
    listener = client;
    client.on("error", (err) => void down(client, err));
    client.on("end", () => void down(client, new Error("key change listener: connection ended")));
    client.on("notification", (msg) => onNotification(client, msg.channel, msg.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANNEL}`);
      await client.query(`LISTEN ${pingChannel}`);
      if (client !== listener) return; // closed meanwhile
      // Not trusted until a ping sent through the pool comes back over this connection; one that
      // is not back when the next is due (the first one included) takes the listener down.
      ping(client);
      heartbeat = setInterval(() => ping(client), heartbeatMs);
      heartbeat.unref();
    } catch (err) {
      await down(client, err);
    }
  }

  function ensureListening(): void {
    if (closed || listener !== undefined) return;
    const now = Date.now();
    if (now - lastAttempt < retryMs) return;
    lastAttempt = now;
    void open();
  }

  return {
    version() {
      if (confirmed) return epoch;
      ensureListening();
      return null;
    },
    async close() {
      closed = true;
      if (listener) await down(listener);
    },
  };
}
