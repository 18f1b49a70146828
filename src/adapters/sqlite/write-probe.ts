/**
 * Whether the database file takes writes, for readiness. Three things stop them: a disk with no
 * room left (every commit fails, while a statement that is rolled back still passes, so the probe
 * writes one page into a file of its own beside the database, and removes it); a file or
 * filesystem that is read-only; and another process holding the write lock, which is no failure
 * (writes wait for it, up to the timeout) but is named, so that an operator sees why writes wait.
 * Nothing is written to the database itself.
 */
import { open, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { WriteState } from "../../ports/store.ts";
import type { Db } from "./db.ts";
import { isLocked, isReadOnly } from "./errors.ts";

const PAGE = Buffer.alloc(4096);
/** Errors that say the filesystem has no room for what is written. */
const NO_ROOM = new Set(["ENOSPC", "EDQUOT"]);

/** The file a `path` as given to openDb names; null for a database in memory. */
export function databaseFile(path: string): string | null {
  if (path === "" || path === ":memory:") return null;
  if (!path.startsWith("file:")) return path;
  const [location = "", query = ""] = path.slice("file:".length).split("?");
  if (location === ":memory:" || new URLSearchParams(query).get("mode") === "memory") return null;
  // file:///srv/x.db and file://localhost/srv/x.db name /srv/x.db; file:x.db is relative.
  return decodeURIComponent(location.replace(/^\/\/(localhost)?(?=\/)/, ""));
}

let probes = 0;

/** False when the filesystem holding `file` has no room for one more page. */
async function diskHasRoom(file: string): Promise<boolean> {
  const probe = join(dirname(file), `.toolrun-write-probe-${process.pid}-${++probes}`);
  try {
    const handle = await open(probe, "wx");
    try {
      await handle.write(PAGE);
    } finally {
      await handle.close();
      await unlink(probe);
    }
    return true;
  } catch (error) {
    // Anything else (a read-only directory beside a writable file, say) is for the database's own
    // probe to judge.
    return !NO_ROOM.has((error as NodeJS.ErrnoException).code ?? "");
  }
}

export function createWriteProbe(db: Db, path: string): () => Promise<WriteState> {
  const file = databaseFile(path);
  return async () => {
    if (file !== null && !(await diskHasRoom(file))) return "full";
    // Synchronous from here, so it never interleaves with a group commit's open transaction.
    try {
      db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      if (isLocked(error)) return "locked";
      if (isReadOnly(error)) return "read_only";
      throw error;
    }
    try {
      db.exec("UPDATE schema_migrations SET version = version WHERE 0");
      return "ok";
    } catch (error) {
      if (isReadOnly(error)) return "read_only";
      throw error;
    } finally {
      db.exec("ROLLBACK");
    }
  };
}
