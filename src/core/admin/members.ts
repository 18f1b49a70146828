/**
 * Members: people who sign in to the console through the operator's OpenID provider and manage
 * their own account. What the sign-in decides (who may join which account), the sessions, and the
 * operator's actions on members (list, disable, enable, invite), shared by the admin API and the
 * CLI. The OpenID protocol itself is the console's (a library); it hands this module an identity
 * the provider vouched for.
 */
import { hash } from "node:crypto";
import type { MemberRecord } from "../../ports/member-store.ts";
import type { Store } from "../../ports/store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { decodeCursor, encodeCursor, invalidCursor } from "../contract/cursor.ts";
import { nullable } from "../contract/schemas.ts";
import { ApiError } from "../kernel/errors.ts";
import { hashKey, newAccountId, randomBase62 } from "../kernel/key-format.ts";
import { existingAccount } from "./actions.ts";
import { type ActedBy, auditEntry } from "./audit.ts";
import { parser, storableTime } from "./input.ts";
import { page, parameters, timestamp } from "./schemas.ts";

/** Who may sign up: anyone the provider vouches for, or only the emails an operator invited. */
export type SignupMode = "open" | "invite";

export interface MemberSettings {
  readonly signup: SignupMode;
  /** The plan of the account an open sign-up makes. */
  readonly signupPlan: string;
}

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

/** Who the provider says signed in, from its ID token and user info. */
export interface SignInIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  /** Only a verified email is trusted: an unverified one never joins an invited account. */
  readonly emailVerified: boolean;
  readonly name: string | null;
}

export type SignInOutcome =
  | { readonly ok: true; readonly member: MemberRecord; readonly created: boolean }
  | { readonly ok: false; readonly reason: "disabled" | "not_invited" };

export interface MemberDeps {
  readonly store: Store;
  readonly now: () => Date;
}

export const memberActor = (member: Pick<MemberRecord, "id">, requestId: string | null): ActedBy => ({
  actor: { type: "member", id: member.id },
  requestId,
});

/**
 * The member this identity is, made on its first sign-in: into the account an invite of its
 * verified email names, else (open sign-up) with a new account of its own on the sign-up plan.
 * Invite-only, a stranger is refused; a disabled member is refused.
 */
export async function signIn(
  deps: MemberDeps,
  settings: MemberSettings,
  identity: SignInIdentity,
  requestId: string | null,
): Promise<SignInOutcome> {
  // Two tries: a sign-in racing this one for the same identity may make the member first.
  for (let attempt = 0; attempt < 2; attempt++) {
    const known = await deps.store.findMemberByIdentity(identity.issuer, identity.subject);
    if (known)
      return known.status === "active" ? { ok: true, member: known, created: false } : refusedDisabled;
    const email = identity.emailVerified && identity.email ? identity.email.toLowerCase() : null;
    const invitedTo = email === null ? null : await deps.store.findInvite(email);
    const now = deps.now();
    const id = newMemberId();
    const accountId = invitedTo ?? newAccountId();
    if (invitedTo === null && settings.signup === "invite") return { ok: false, reason: "not_invited" };
    const member = {
      id,
      issuer: identity.issuer,
      subject: identity.subject,
      email,
      name: identity.name,
      accountId,
      createdAt: now.toISOString(),
    };
    const join =
      invitedTo !== null && email !== null
        ? { invitedEmail: email }
        : {
            newAccount: {
              id: accountId,
              name: identity.name ?? email ?? id,
              plan: settings.signupPlan,
              createdAt: member.createdAt,
            },
          };
    const entry = auditEntry(memberActor(member, requestId), now, "members.create", id, {
      account_id: accountId,
      ...("invitedEmail" in join ? { invited_email: email } : { plan: settings.signupPlan }),
    });
    if (await deps.store.createMember(member, join, entry)) {
      const made = await deps.store.getMember(id);
      if (made) return { ok: true, member: made, created: true };
    }
  }
  return { ok: false, reason: "not_invited" };
}

const refusedDisabled: SignInOutcome = { ok: false, reason: "disabled" };

export function newMemberId(): string {
  return `mem_${randomBase62(16)}`;
}

/** A new session: the token for the cookie (never stored), and its hash, stored. */
export async function startSession(deps: MemberDeps, member: MemberRecord): Promise<string> {
  const token = randomBase62(43);
  const now = deps.now();
  await deps.store.createMemberSession({
    idHash: hashKey(token),
    memberId: member.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
  });
  return token;
}

/** The active member of a live session (the session then lives 7 more days); null otherwise. */
export async function sessionMember(deps: MemberDeps, token: string): Promise<MemberRecord | null> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null;
  const now = deps.now();
  return deps.store.useMemberSession(
    hashKey(token),
    now.toISOString(),
    new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
  );
}

export async function endSession(deps: MemberDeps, token: string): Promise<void> {
  if (/^[0-9A-Za-z]{43}$/.test(token)) await deps.store.endMemberSession(hashKey(token));
}

/**
 * The session's CSRF token: derived from the session token, which only the cookie carries (HttpOnly,
 * never in a page), so a page of another origin can neither read nor compute it. It changes with
 * every session and is checked on every state-changing console request.
 */
export function csrfTokenOf(sessionToken: string): string {
  return hash("sha256", `toolrun-csrf:${sessionToken}`, "base64url");
}

// ---------------------------------------------------------------------------------------------
// Operators' actions

export function memberNotFound(): ApiError {
  return new ApiError("member_not_found", "No member has this id.");
}

export async function existingMember(store: Pick<Store, "getMember">, id: string): Promise<MemberRecord> {
  const member = await store.getMember(id);
  if (!member) throw memberNotFound();
  return member;
}

/** Disables the member (its sessions end at once) or enables it again; the same member if unchanged. */
export async function setMemberStatus(
  deps: MemberDeps,
  by: ActedBy,
  id: string,
  status: "active" | "disabled",
): Promise<MemberRecord> {
  const action = status === "disabled" ? "members.disable" : "members.enable";
  await deps.store.setMemberStatus(id, status, auditEntry(by, deps.now(), action, id, {}));
  return existingMember(deps.store, id);
}

export interface InviteView {
  account_id: string;
  email: string;
}

/** Lets the email sign in and join the account (invite-only or not). */
export async function inviteMember(
  deps: MemberDeps,
  by: ActedBy,
  accountId: string,
  email: string,
): Promise<InviteView> {
  const now = deps.now();
  const lower = email.toLowerCase();
  const entry = auditEntry(by, now, "members.invite", accountId, { email: lower });
  if (!(await deps.store.inviteMember(accountId, lower, now.toISOString(), entry))) {
    await existingAccount(deps.store, accountId);
  }
  return { account_id: accountId, email: lower };
}

export const inviteSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["email"],
  properties: {
    email: {
      type: "string",
      minLength: 3,
      maxLength: 254,
      pattern: "^[^@\\s]+@[^@\\s]+$",
      description:
        "The email that may sign in and join the account; it must be the one the provider verified (matched without regard to case).",
    },
  },
};

const checkInvite = parser(inviteSchema, "invite");

export function parseInvite(body: unknown): { email: string } {
  return { email: checkInvite(body).email as string };
}

export interface MemberView {
  id: string;
  account_id: string;
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  status: "active" | "disabled";
  created_at: string;
  last_seen_at: string | null;
}

export function memberView(member: MemberRecord): MemberView {
  return {
    id: member.id,
    account_id: member.accountId,
    issuer: member.issuer,
    subject: member.subject,
    email: member.email,
    name: member.name,
    status: member.status,
    created_at: member.createdAt,
    last_seen_at: member.lastSeenAt,
  };
}

const MEMBERS_CURSOR = "m1";
const MEMBERS_POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\|[A-Za-z0-9_-]{1,100}$/;

/** One page of members, oldest first, of one account or all. */
export async function listMemberViews(
  deps: MemberDeps,
  query: { limit: number; cursor: string | null; accountId: string | null },
): Promise<{ members: MemberView[]; next_cursor: string | null }> {
  let after: { createdAt: string; id: string } | null = null;
  if (query.cursor !== null) {
    const position = decodeCursor(MEMBERS_CURSOR, query.cursor, MEMBERS_POSITION);
    const bar = position.indexOf("|");
    const createdAt = position.slice(0, bar);
    if (storableTime(Date.parse(createdAt)) !== createdAt) throw invalidCursor();
    after = { createdAt, id: position.slice(bar + 1) };
  }
  const rows = await deps.store.listMembers({ limit: query.limit + 1, after, accountId: query.accountId });
  const members = rows.slice(0, query.limit);
  const last = members.at(-1);
  return {
    members: members.map(memberView),
    next_cursor:
      rows.length > query.limit && last ? encodeCursor(MEMBERS_CURSOR, `${last.createdAt}|${last.id}`) : null,
  };
}

const ID = { type: "string", minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_.-]+$" };

export const memberIdParameters = parameters({ id: { ...ID, description: "The member's id (`mem_...`)." } }, [
  "id",
]);
export const accountIdParameters = parameters(
  { id: { ...ID, description: "The account's id (`acc_...`)." } },
  ["id"],
);
export const memberListParameters = parameters({
  ...page("members"),
  account_id: { ...ID, description: "Only this account's members." },
});

export const memberSchema: JsonSchema = {
  type: "object",
  required: [
    "id",
    "account_id",
    "issuer",
    "subject",
    "email",
    "name",
    "status",
    "created_at",
    "last_seen_at",
  ],
  properties: {
    id: { type: "string", description: "`mem_` and 16 letters or digits." },
    account_id: { type: "string", description: "The one account the member belongs to." },
    issuer: { type: "string", description: "The OpenID provider's issuer." },
    subject: { type: "string", description: "The member's subject at that provider." },
    email: { ...nullable({ type: "string" }), description: "The email the provider verified; null if none." },
    name: nullable({ type: "string" }),
    status: {
      type: "string",
      enum: ["active", "disabled"],
      description: "A disabled member cannot sign in; its sessions ended when it was disabled.",
    },
    created_at: timestamp,
    last_seen_at: { ...nullable(timestamp), description: "The last sign-in or console request." },
  },
};

export const memberListSchema: JsonSchema = {
  type: "object",
  required: ["members", "next_cursor"],
  properties: {
    members: { type: "array", items: memberSchema, description: "Oldest first." },
    next_cursor: nullable({ type: "string" }),
  },
};

export const inviteAnswerSchema: JsonSchema = {
  type: "object",
  required: ["account_id", "email"],
  properties: {
    account_id: { type: "string" },
    email: { type: "string", description: "The invited email, lower case." },
  },
};
