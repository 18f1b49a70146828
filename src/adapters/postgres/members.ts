/**
 * MemberStore on PostgreSQL: members, the invites that let an email join an account, and the
 * members' console sessions. Boundary: the `members`, `member_invites` and `member_sessions`
 * tables (and inserting an open sign-up's account into `accounts`).
 */
import type { Pool } from "pg";
import type { MemberStore } from "../../ports/member-store.ts";
import type { NewAuditEntry } from "../../ports/records.ts";
import {
  MEMBER_COLUMNS,
  type MemberRow,
  memberInsertValues,
  memberPageValues,
  toMemberRecord,
} from "../member-rows.ts";
import { audited } from "./audit.ts";
import { type Queryable, run, statement, transaction } from "./db.ts";

const BY_IDENTITY = statement(
  "member_by_identity",
  `SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.issuer = $1 AND m.subject = $2`,
);
const BY_ID = statement("member_by_id", `SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.id = $1`);
const PAGE = statement(
  "member_page",
  `SELECT ${MEMBER_COLUMNS} FROM members m
   WHERE ($1::text IS NULL OR m.account_id = $1::text)
     AND ($2::timestamptz IS NULL OR (m.created_at, m.id) > ($2::timestamptz, $3::text))
   ORDER BY m.created_at, m.id LIMIT $4`,
);
const INSERT = statement(
  "member_insert",
  `INSERT INTO members (id, issuer, subject, email, name, account_id, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)
   ON CONFLICT (issuer, subject) DO NOTHING RETURNING id`,
);
const INSERT_ACCOUNT = statement(
  "member_account_insert",
  `INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at)
   VALUES ($1, $2, $3, NULL, '{}', $4::timestamptz)`,
);
const USE_INVITE = statement(
  "member_invite_use",
  "DELETE FROM member_invites WHERE email = $1 AND account_id = $2 RETURNING email",
);
const SET_STATUS = statement(
  "member_set_status",
  "UPDATE members SET status = $1 WHERE id = $2 AND status <> $1 RETURNING id",
);
const END_SESSIONS_OF = statement(
  "member_sessions_end_all",
  "DELETE FROM member_sessions WHERE member_id = $1",
);
const INVITE = statement(
  "member_invite",
  `INSERT INTO member_invites (email, account_id, created_at)
   SELECT $1, a.id, $3::timestamptz FROM accounts a WHERE a.id = $2
   ON CONFLICT (email) DO UPDATE SET account_id = EXCLUDED.account_id, created_at = EXCLUDED.created_at
   RETURNING email`,
);
const INVITE_OF = statement("member_invite_of", "SELECT account_id FROM member_invites WHERE email = $1");
const INSERT_SESSION = statement(
  "member_session_insert",
  `INSERT INTO member_sessions (id_hash, member_id, created_at, expires_at)
   VALUES ($1, $2, $3::timestamptz, $4::timestamptz)`,
);
// One statement: the slide, the member's last sighting and its record, only for an active member.
const USE_SESSION = statement(
  "member_session_use",
  `WITH s AS (
     UPDATE member_sessions SET expires_at = $3::timestamptz
     WHERE id_hash = $1 AND expires_at > $2::timestamptz
       AND member_id IN (SELECT id FROM members WHERE status = 'active')
     RETURNING member_id
   )
   UPDATE members m SET last_seen_at = $2::timestamptz FROM s WHERE m.id = s.member_id
   RETURNING ${MEMBER_COLUMNS}`,
);
const END_SESSION = statement("member_session_end", "DELETE FROM member_sessions WHERE id_hash = $1");
const PURGE = statement(
  "member_sessions_purge",
  "DELETE FROM member_sessions WHERE expires_at < $1::timestamptz RETURNING id_hash",
);

const ROLLBACK = Symbol("rollback");

export function createMemberStore(pool: Pool): MemberStore {
  // One transaction, with the audit entry when there is one.
  const atomically = (audit: NewAuditEntry | undefined, change: (db: Queryable) => Promise<number>) =>
    audit === undefined ? transaction(pool, change) : audited(pool, audit, change);

  return {
    async findMemberByIdentity(issuer, subject) {
      const [row] = await run<MemberRow>(pool, BY_IDENTITY, [issuer, subject]);
      return row ? toMemberRecord(row) : null;
    },
    async getMember(id) {
      const [row] = await run<MemberRow>(pool, BY_ID, [id]);
      return row ? toMemberRecord(row) : null;
    },
    async listMembers(page) {
      return (await run<MemberRow>(pool, PAGE, memberPageValues(page))).map(toMemberRecord);
    },
    async createMember(member, join, audit) {
      try {
        const created = await atomically(audit, async (db) => {
          if ("newAccount" in join) {
            const a = join.newAccount;
            await run(db, INSERT_ACCOUNT, [a.id, a.name, a.plan, a.createdAt]);
          } else if ((await run(db, USE_INVITE, [join.invitedEmail, member.accountId])).length === 0) {
            return 0;
          }
          const inserted = (await run(db, INSERT, memberInsertValues(member))).length;
          // Undo the new account or the invite's use: the identity became a member meanwhile.
          if (inserted === 0) throw ROLLBACK;
          return inserted;
        });
        return created === 1;
      } catch (error) {
        if (error === ROLLBACK) return false;
        throw error;
      }
    },
    async setMemberStatus(id, status, audit) {
      const changed = await atomically(audit, async (db) => {
        const rows = await run(db, SET_STATUS, [status, id]);
        if (rows.length > 0 && status === "disabled") await run(db, END_SESSIONS_OF, [id]);
        return rows.length;
      });
      return changed === 1;
    },
    async inviteMember(accountId, email, at, audit) {
      const changed = await atomically(
        audit,
        async (db) => (await run(db, INVITE, [email, accountId, at])).length,
      );
      return changed === 1;
    },
    async findInvite(email) {
      const [row] = await run<{ account_id: string }>(pool, INVITE_OF, [email]);
      return row?.account_id ?? null;
    },
    async createMemberSession(session) {
      await run(pool, INSERT_SESSION, [
        session.idHash,
        session.memberId,
        session.createdAt,
        session.expiresAt,
      ]);
    },
    async useMemberSession(idHash, now, slideTo) {
      const [row] = await run<MemberRow>(pool, USE_SESSION, [idHash, now, slideTo]);
      return row ? toMemberRecord(row) : null;
    },
    async endMemberSession(idHash) {
      await run(pool, END_SESSION, [idHash]);
    },
    async purgeMemberSessions(before) {
      return (await run(pool, PURGE, [before])).length;
    },
  };
}
