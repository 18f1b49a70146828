/**
 * MemberStore on SQLite: members, the invites that let an email join an account, and the members'
 * console sessions. Boundary: the `members`, `member_invites` and `member_sessions` tables (and
 * inserting an open sign-up's account into `accounts`).
 */
import type { MemberStore } from "../../ports/member-store.ts";
import {
  MEMBER_COLUMNS,
  type MemberRow,
  memberInsertValues,
  memberPageValues,
  toMemberRecord,
} from "../member-rows.ts";
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";

export function createMemberStore(db: Db, audited: Audited): MemberStore {
  const byIdentity = db.statement<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.issuer = ? AND m.subject = ?`,
  );
  const byId = db.statement<MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.id = ?`);
  const page = db.statement<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM members m
     WHERE (?1 IS NULL OR m.account_id = ?1)
       AND (?2 IS NULL OR m.created_at > ?2 OR (m.created_at = ?2 AND m.id > ?3))
     ORDER BY m.created_at, m.id LIMIT ?4`,
  );
  const insert = db.statement(
    `INSERT INTO members (id, issuer, subject, email, name, account_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAccount = db.statement(
    "INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at) VALUES (?, ?, ?, NULL, '{}', ?)",
  );
  const useInvite = db.statement("DELETE FROM member_invites WHERE email = ? AND account_id = ?");
  const setStatus = db.statement("UPDATE members SET status = ? WHERE id = ? AND status <> ?");
  const endSessionsOf = db.statement("DELETE FROM member_sessions WHERE member_id = ?");
  const account = db.statement<{ id: string }>("SELECT id FROM accounts WHERE id = ?");
  const invite = db.statement(
    `INSERT INTO member_invites (email, account_id, created_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (email) DO UPDATE SET account_id = ?2, created_at = ?3`,
  );
  const inviteOf = db.statement<{ account_id: string }>(
    "SELECT account_id FROM member_invites WHERE email = ?",
  );
  const insertSession = db.statement(
    "INSERT INTO member_sessions (id_hash, member_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
  );
  const slide = db.statement<{ member_id: string }>(
    `UPDATE member_sessions SET expires_at = ?3
     WHERE id_hash = ?1 AND expires_at > ?2
       AND member_id IN (SELECT id FROM members WHERE status = 'active')
     RETURNING member_id`,
  );
  const seen = db.statement("UPDATE members SET last_seen_at = ? WHERE id = ?");
  const endSession = db.statement("DELETE FROM member_sessions WHERE id_hash = ?");
  const purge = db.statement("DELETE FROM member_sessions WHERE expires_at < ?");

  // One IMMEDIATE transaction, with the audit entry when there is one.
  const atomically = (change: () => number, audit: Parameters<Audited>[1]) =>
    audit === undefined ? db.transaction(change) : audited(change, audit);

  return {
    async findMemberByIdentity(issuer, subject) {
      const row = byIdentity.get(issuer, subject);
      return row ? toMemberRecord(row) : null;
    },
    async getMember(id) {
      const row = byId.get(id);
      return row ? toMemberRecord(row) : null;
    },
    async listMembers(options) {
      return page.all(...memberPageValues(options)).map(toMemberRecord);
    },
    createMember: async (member, join, audit) =>
      atomically(() => {
        // The write lock is held: no other sign-in can make this identity a member meanwhile.
        if (byIdentity.get(member.issuer, member.subject)) return 0;
        if ("newAccount" in join) {
          const a = join.newAccount;
          insertAccount.run(a.id, a.name, a.plan, a.createdAt);
        } else if (useInvite.run(join.invitedEmail, member.accountId) === 0) {
          return 0;
        }
        return insert.run(...memberInsertValues(member));
      }, audit) === 1,
    setMemberStatus: async (id, status, audit) =>
      atomically(() => {
        const changed = setStatus.run(status, id, status);
        if (changed > 0 && status === "disabled") endSessionsOf.run(id);
        return changed;
      }, audit) === 1,
    inviteMember: async (accountId, email, at, audit) =>
      audited(() => (account.get(accountId) ? invite.run(email, accountId, at) : 0), audit) === 1,
    async findInvite(email) {
      return inviteOf.get(email)?.account_id ?? null;
    },
    async createMemberSession(session) {
      insertSession.run(session.idHash, session.memberId, session.createdAt, session.expiresAt);
    },
    async useMemberSession(idHash, now, slideTo) {
      const row = db.transaction(() => {
        const found = slide.get(idHash, now, slideTo);
        if (found) seen.run(now, found.member_id);
        return found;
      });
      if (!row) return null;
      const member = byId.get(row.member_id);
      return member ? toMemberRecord(member) : null;
    },
    async endMemberSession(idHash) {
      endSession.run(idHash);
    },
    purgeMemberSessions: async (before) => purge.run(before),
  };
}
