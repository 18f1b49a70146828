/**
 * The members part of the Store, the same for every adapter: each adapter's test file calls
 * `describeMemberStoreContract` with a database that two instances (two stores) can open, so an
 * invite used by two sign-ins at once, or a session ended on one instance, is checked across
 * instances.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it, type TestContext } from "node:test";
import type { NewMember } from "../../src/ports/member-store.ts";
import type { NewAuditEntry, Store } from "../../src/ports/store.ts";
import { newAccount } from "./store.contract.ts";

export interface MemberDatabase {
  /** A migrated store on the database, as one more instance would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-15T12:00:00.000Z";
const LATER = "2026-11-15T13:00:00.000Z";
const WEEK = "2026-11-22T12:00:00.000Z";

let counter = 0;
function member(accountId: string, overrides: Partial<NewMember> = {}): NewMember {
  counter++;
  return {
    id: `mem_${String(counter).padStart(4, "0")}${randomUUID().replaceAll("-", "").slice(0, 12)}`,
    issuer: "https://id.example",
    subject: `sub-${randomUUID()}`,
    email: `person${counter}@example.com`,
    name: `Person ${counter}`,
    accountId,
    createdAt: NOW,
    ...overrides,
  };
}

function audit(action: string, target: string): NewAuditEntry {
  return { at: NOW, actor: { type: "member", id: target }, action, target, requestId: null, details: {} };
}

export function describeMemberStoreContract(name: string, makeDatabase: () => Promise<MemberDatabase>): void {
  describe(`Member store contract: ${name}`, () => {
    async function stores(t: TestContext, count = 1): Promise<[Store, Store]> {
      const db = await makeDatabase();
      const opened: Store[] = [];
      for (let i = 0; i < count; i++) opened.push(await db.open());
      t.after(async () => {
        for (const store of opened) await store.close();
        await db.cleanup();
      });
      // With one store asked for, the second is the same one.
      return [opened[0] as Store, (opened[1] ?? opened[0]) as Store];
    }

    it("an open sign-up makes the member and its account in one step, audited as the member", async (t) => {
      const [store] = await stores(t);
      const accountId = `acc_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
      const m = member(accountId);
      const made = await store.createMember(
        m,
        { newAccount: { id: accountId, name: "Person", plan: "free", createdAt: NOW } },
        audit("members.create", m.id),
      );
      assert.equal(made, true);
      const found = await store.findMemberByIdentity(m.issuer, m.subject);
      assert.deepEqual(found, { ...m, status: "active", lastSeenAt: null });
      assert.deepEqual(await store.getMember(m.id), found);
      const account = await store.getAccount(accountId);
      assert.equal(account?.plan, "free");
      assert.equal(account?.monthlyAllowance, null);
      const log = await store.listAudit({ limit: 10, cursor: null, target: m.id });
      assert.deepEqual(
        log.entries.map((e) => [e.actor, e.action]),
        [[{ type: "member", id: m.id }, "members.create"]],
      );
    });

    it("the same identity is a member once; the second sign-up leaves no account behind", async (t) => {
      const [a, b] = await stores(t, 2);
      const first = member("acc_first000000000");
      const again = { ...member("acc_second00000000"), issuer: first.issuer, subject: first.subject };
      const results = await Promise.all([
        a.createMember(first, {
          newAccount: { id: first.accountId, name: "x", plan: "free", createdAt: NOW },
        }),
        b.createMember(again, {
          newAccount: { id: again.accountId, name: "x", plan: "free", createdAt: NOW },
        }),
      ]);
      assert.deepEqual(results.sort(), [false, true]);
      const winner = await a.findMemberByIdentity(first.issuer, first.subject);
      const loser = winner?.accountId === first.accountId ? again : first;
      assert.equal(await a.getAccount(loser.accountId), null);
      assert.equal(await a.getMember(loser.id), null);
    });

    it("an invite lets its email join the account once; a later invite names another account", async (t) => {
      const [a, b] = await stores(t, 2);
      const one = newAccount();
      const two = newAccount();
      await a.createAccount(one);
      await a.createAccount(two);
      assert.equal(await a.inviteMember("acc_nothere00000000", "x@example.com", NOW), false);
      assert.equal(await a.findInvite("x@example.com"), null);
      assert.equal(
        await a.inviteMember(one.id, "ann@example.com", NOW, audit("members.invite", one.id)),
        true,
      );
      assert.equal(await b.findInvite("ann@example.com"), one.id);
      assert.equal(await a.inviteMember(two.id, "ann@example.com", LATER), true);
      assert.equal(await b.findInvite("ann@example.com"), two.id);

      // Two sign-ins with the invited email at once (two identities): one joins, the invite is used.
      const x = member(two.id, { email: "ann@example.com" });
      const y = member(two.id, { email: "ann@example.com" });
      const joined = await Promise.all([
        a.createMember(x, { invitedEmail: "ann@example.com" }),
        b.createMember(y, { invitedEmail: "ann@example.com" }),
      ]);
      assert.deepEqual(joined.sort(), [false, true]);
      assert.equal(await a.findInvite("ann@example.com"), null);
      const members = await a.listMembers({ limit: 10, after: null, accountId: two.id });
      assert.equal(members.length, 1);
      // An invite naming another account than the member's is not used.
      await a.inviteMember(one.id, "bob@example.com", NOW);
      assert.equal(await a.createMember(member(two.id), { invitedEmail: "bob@example.com" }), false);
      assert.equal(await a.findInvite("bob@example.com"), one.id);
    });

    it("lists members oldest first, a page at a time, by account", async (t) => {
      const [store] = await stores(t);
      const acc = newAccount();
      const other = newAccount();
      await store.createAccount(acc);
      await store.createAccount(other);
      const made: NewMember[] = [];
      for (const [i, at] of [
        "2026-11-15T12:00:01.000Z",
        "2026-11-15T12:00:02.000Z",
        "2026-11-15T12:00:03.000Z",
      ].entries()) {
        const m = member(i === 1 ? other.id : acc.id, { createdAt: at });
        await store.inviteMember(m.accountId, `p${i}-${counter}@example.com`, NOW);
        assert.equal(await store.createMember(m, { invitedEmail: `p${i}-${counter}@example.com` }), true);
        made.push(m);
      }
      const first = await store.listMembers({ limit: 2, after: null, accountId: null });
      assert.deepEqual(
        first.map((m) => m.id),
        [made[0]?.id, made[1]?.id],
      );
      const last = first[1];
      assert.ok(last);
      const next = await store.listMembers({
        limit: 2,
        after: { createdAt: last.createdAt, id: last.id },
        accountId: null,
      });
      assert.deepEqual(
        next.map((m) => m.id),
        [made[2]?.id],
      );
      const ofAccount = await store.listMembers({ limit: 10, after: null, accountId: acc.id });
      assert.deepEqual(
        ofAccount.map((m) => m.id),
        [made[0]?.id, made[2]?.id],
      );
    });

    it("a session slides while used, ends when signed out, and expires unused", async (t) => {
      const [a, b] = await stores(t, 2);
      const acc = newAccount();
      await a.createAccount(acc);
      const m = member(acc.id);
      await a.inviteMember(acc.id, "s@example.com", NOW);
      await a.createMember(m, { invitedEmail: "s@example.com" });
      await a.createMemberSession({ idHash: "h1", memberId: m.id, createdAt: NOW, expiresAt: LATER });
      const used = await b.useMemberSession("h1", "2026-11-15T12:30:00.000Z", WEEK);
      assert.equal(used?.id, m.id);
      assert.equal(used?.lastSeenAt, "2026-11-15T12:30:00.000Z");
      // Slid to WEEK: still live after LATER.
      assert.equal((await a.useMemberSession("h1", "2026-11-20T00:00:00.000Z", WEEK))?.id, m.id);
      assert.equal(await a.useMemberSession("h1", WEEK, "2026-12-01T00:00:00.000Z"), null);
      assert.equal(await a.useMemberSession("nope", NOW, WEEK), null);
      await a.createMemberSession({ idHash: "h2", memberId: m.id, createdAt: NOW, expiresAt: WEEK });
      await b.endMemberSession("h2");
      assert.equal(await a.useMemberSession("h2", NOW, WEEK), null);
      assert.equal(await a.purgeMemberSessions("2026-12-01T00:00:00.000Z"), 1);
    });

    it("disabling a member ends its sessions at once on every instance; enabling does not revive them", async (t) => {
      const [a, b] = await stores(t, 2);
      const acc = newAccount();
      await a.createAccount(acc);
      const m = member(acc.id);
      await a.inviteMember(acc.id, "d@example.com", NOW);
      await a.createMember(m, { invitedEmail: "d@example.com" });
      await a.createMemberSession({ idHash: "d1", memberId: m.id, createdAt: NOW, expiresAt: WEEK });
      assert.equal((await b.useMemberSession("d1", NOW, WEEK))?.id, m.id);
      assert.equal(await a.setMemberStatus(m.id, "disabled", audit("members.disable", m.id)), true);
      assert.equal(await a.setMemberStatus(m.id, "disabled"), false);
      assert.equal(await b.useMemberSession("d1", NOW, WEEK), null);
      assert.equal((await b.getMember(m.id))?.status, "disabled");
      assert.equal(await a.setMemberStatus(m.id, "active"), true);
      assert.equal(await b.useMemberSession("d1", NOW, WEEK), null);
      assert.equal(await a.setMemberStatus("mem_nothere", "disabled"), false);
      const log = await a.listAudit({ limit: 10, cursor: null, target: m.id });
      assert.deepEqual(
        log.entries.map((e) => e.action),
        ["members.disable"],
      );
    });
  });
}
