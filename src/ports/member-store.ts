/**
 * The members part of the storage port: people who sign in to the console through an OpenID
 * provider, the emails an operator invited into an account, and the members' console sessions.
 * Implemented by adapters/sqlite/members.ts and adapters/postgres/members.ts; both pass one
 * contract suite (test/contracts/member-store.contract.ts). The store never sees a session token:
 * callers hand it its SHA-256.
 */
import type { NewAuditEntry } from "./records.ts";

export type MemberStatus = "active" | "disabled";

export interface NewMember {
  /** `mem_` + 16 base62. */
  readonly id: string;
  /** The provider's issuer and the member's subject there: together, who signs in. */
  readonly issuer: string;
  readonly subject: string;
  /** Only an email the provider verified; null when it gave none. */
  readonly email: string | null;
  readonly name: string | null;
  readonly accountId: string;
  readonly createdAt: string;
}

export interface MemberRecord extends NewMember {
  readonly status: MemberStatus;
  /** The last sign-in or console request; null before the first session. */
  readonly lastSeenAt: string | null;
}

/** The account an open sign-up makes for its member: the plan's allowance, no metadata. */
export interface MemberAccount {
  readonly id: string;
  readonly name: string;
  readonly plan: string;
  readonly createdAt: string;
}

/** How a new member joins: a new account made with it, or the account an invite of its email names. */
export type MemberJoin =
  | { readonly newAccount: MemberAccount }
  | {
      /** The invited email (lower case), consumed by the join. */
      readonly invitedEmail: string;
    };

/** Members are listed oldest first; a page starts after the last member of the previous one. */
export interface MemberPage {
  readonly limit: number;
  readonly after: { readonly createdAt: string; readonly id: string } | null;
  /** Only this account's members; null for all. */
  readonly accountId: string | null;
}

export interface NewMemberSession {
  /** SHA-256 of the session token. */
  readonly idHash: string;
  readonly memberId: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface MemberStore {
  /** The member who signs in as this issuer and subject; null for a stranger. */
  findMemberByIdentity(issuer: string, subject: string): Promise<MemberRecord | null>;
  getMember(id: string): Promise<MemberRecord | null>;
  /** One page of members, oldest first. */
  listMembers(page: MemberPage): Promise<MemberRecord[]>;
  /**
   * Creates the member and, in the same transaction, the account it joins or the consumption of
   * the invite it joins by (the member's `accountId` must be the invite's). False, nothing written,
   * when the issuer and subject are already a member or the invite is gone (another sign-in used it).
   */
  createMember(member: NewMember, join: MemberJoin, audit?: NewAuditEntry): Promise<boolean>;
  /**
   * Sets the member's status; disabling ends its sessions in the same transaction. False when no
   * such member or it already had that status (nothing written).
   */
  setMemberStatus(id: string, status: MemberStatus, audit?: NewAuditEntry): Promise<boolean>;

  /**
   * Lets `email` (lower case) sign in and join the account; a later invite of the same email
   * names the account instead. False when no such account.
   */
  inviteMember(accountId: string, email: string, at: string, audit?: NewAuditEntry): Promise<boolean>;
  /** The account an invite of this email (lower case) names; null when none. */
  findInvite(email: string): Promise<string | null>;

  createMemberSession(session: NewMemberSession): Promise<void>;
  /**
   * The active member whose session this is, when the session has not expired at `now`; the
   * session then expires at `slideTo` and the member was last seen `now`. Null otherwise.
   */
  useMemberSession(idHash: string, now: string, slideTo: string): Promise<MemberRecord | null>;
  endMemberSession(idHash: string): Promise<void>;
  /** Removes sessions that expired before `before`; returns how many. */
  purgeMemberSessions(before: string): Promise<number>;
}
