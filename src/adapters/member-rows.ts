/** Members as both SQL stores read and write them: the columns, a row as read, its record. */
import type { MemberPage, MemberRecord, MemberStatus, NewMember } from "../ports/member-store.ts";
import { iso, type Timestamp } from "./sql-rows.ts";

export const MEMBER_COLUMNS =
  "m.id, m.issuer, m.subject, m.email, m.name, m.account_id, m.status, m.created_at, m.last_seen_at";

export interface MemberRow {
  id: string;
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  account_id: string;
  status: MemberStatus;
  created_at: Timestamp;
  last_seen_at: Timestamp | null;
}

export function toMemberRecord(row: MemberRow): MemberRecord {
  return {
    id: row.id,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    name: row.name,
    accountId: row.account_id,
    status: row.status,
    createdAt: iso(row.created_at),
    lastSeenAt: row.last_seen_at === null ? null : iso(row.last_seen_at),
  };
}

/** The parameters of a member's INSERT on either store, in the column order both statements name. */
export function memberInsertValues(member: NewMember): (string | null)[] {
  return [
    member.id,
    member.issuer,
    member.subject,
    member.email,
    member.name,
    member.accountId,
    member.createdAt,
  ];
}

/** A page's parameters: the account filter, the keyset position, the size. */
export function memberPageValues(page: MemberPage): (string | number | null)[] {
  return [page.accountId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit];
}
