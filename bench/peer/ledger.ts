/**
 * The peer's storage, written the conventional way: a key looked up by the SHA-256 of its secret on
 * every request, and each call charged in one transaction of its own (the balance decremented if it
 * covers the cost, a usage row inserted), on SQLite through better-sqlite3 or on PostgreSQL through
 * pg. No batching, no caches: what a competent first version of such a service does.
 */
import Database from "better-sqlite3";
import pg from "pg";

export interface PeerKey {
  readonly id: string;
  readonly rpm: number;
}

export interface Charge {
  readonly keyId: string;
  readonly tool: string;
  readonly credits: number;
  readonly requestId: string;
}

export interface PeerLedger {
  /** Stores `secretHashes` as keys with `credits` each (idempotent across restarts of the peer). */
  seed(secretHashes: readonly string[], credits: number, rpm: number): Promise<void>;
  findKey(secretHash: string): PeerKey | undefined | Promise<PeerKey | undefined>;
  /** The balance left after charging, or null when it does not cover the call (nothing written). */
  charge(charge: Charge): number | null | Promise<number | null>;
  /** Credits used by a key: from its balance row and summed over its usage rows. */
  used(keyId: string): Promise<{ balance: number; usage: number }>;
  close(): Promise<void>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL UNIQUE,
  rpm INTEGER NOT NULL,
  credits BIGINT NOT NULL,
  credits_used BIGINT NOT NULL DEFAULT 0,
  revoked BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE IF NOT EXISTS usage (
  request_id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  tool TEXT NOT NULL,
  credits INTEGER NOT NULL,
  at TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_key ON usage (key_id);
`;

export function sqliteLedger(file: string): PeerLedger {
  const db = new Database(file);
  // The same durability as toolrun's SQLite store: WAL, synchronous=NORMAL.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  const insertKey = db.prepare(
    "INSERT OR IGNORE INTO api_keys (id, secret_hash, rpm, credits) VALUES (?, ?, ?, ?)",
  );
  const findKey = db.prepare<[string], PeerKey>(
    "SELECT id, rpm FROM api_keys WHERE secret_hash = ? AND NOT revoked",
  );
  const debit = db.prepare<[number, number, string, number], { credits: number }>(
    "UPDATE api_keys SET credits = credits - ?, credits_used = credits_used + ? WHERE id = ? AND credits >= ? RETURNING credits",
  );
  const insertUsage = db.prepare(
    "INSERT INTO usage (request_id, key_id, tool, credits, at) VALUES (?, ?, ?, ?, ?)",
  );
  const charge = db.transaction((c: Charge): number | null => {
    const row = debit.get(c.credits, c.credits, c.keyId, c.credits);
    if (row === undefined) return null;
    insertUsage.run(c.requestId, c.keyId, c.tool, c.credits, new Date().toISOString());
    return row.credits;
  });
  const balance = db.prepare<[string], { used: number }>(
    "SELECT credits_used AS used FROM api_keys WHERE id = ?",
  );
  const usage = db.prepare<[string], { used: number }>(
    "SELECT COALESCE(SUM(credits), 0) AS used FROM usage WHERE key_id = ?",
  );
  return {
    async seed(hashes, credits, rpm) {
      db.transaction(() => {
        for (const [i, hash] of hashes.entries()) insertKey.run(`key_${i}`, hash, rpm, credits);
      })();
    },
    findKey: (hash) => findKey.get(hash),
    charge: (c) => charge.immediate(c),
    async used(keyId) {
      return { balance: balance.get(keyId)?.used ?? 0, usage: usage.get(keyId)?.used ?? 0 };
    },
    async close() {
      db.close();
    },
  };
}

export function postgresLedger(url: string, poolSize: number): PeerLedger {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  return {
    async seed(hashes, credits, rpm) {
      await pool.query(SCHEMA.replaceAll("TIMESTAMP", "TIMESTAMPTZ"));
      for (const [i, hash] of hashes.entries())
        await pool.query(
          "INSERT INTO api_keys (id, secret_hash, rpm, credits) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
          [`key_${i}`, hash, rpm, credits],
        );
    },
    async findKey(hash) {
      const { rows } = await pool.query<PeerKey>({
        name: "find_key",
        text: "SELECT id, rpm FROM api_keys WHERE secret_hash = $1 AND NOT revoked",
        values: [hash],
      });
      return rows[0];
    },
    async charge(c) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const { rows } = await client.query<{ credits: string }>({
          name: "debit",
          text: "UPDATE api_keys SET credits = credits - $1, credits_used = credits_used + $1 WHERE id = $2 AND credits >= $1 RETURNING credits",
          values: [c.credits, c.keyId],
        });
        const row = rows[0];
        if (row === undefined) {
          await client.query("ROLLBACK");
          return null;
        }
        await client.query({
          name: "insert_usage",
          text: "INSERT INTO usage (request_id, key_id, tool, credits, at) VALUES ($1, $2, $3, $4, now())",
          values: [c.requestId, c.keyId, c.tool, c.credits],
        });
        await client.query("COMMIT");
        return Number(row.credits);
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async used(keyId) {
      const { rows } = await pool.query<{ balance: string; usage: string }>(
        "SELECT (SELECT credits_used FROM api_keys WHERE id = $1) AS balance, (SELECT COALESCE(SUM(credits), 0) FROM usage WHERE key_id = $1) AS usage",
        [keyId],
      );
      return { balance: Number(rows[0]?.balance ?? 0), usage: Number(rows[0]?.usage ?? 0) };
    },
    close: () => pool.end(),
  };
}
