/**
 * Members in real Chromium against a real `toolrun serve`, with a local OpenID provider
 * (oidc-provider on a loopback port, which signs in whoever the test names): sign up, land on the
 * account page, create a key, put a new key in this browser and run the calculator from its page,
 * sign out; invite-only refusing a stranger and admitting an invited email; a disabled member's
 * session ending at once. Driven by labels and button names.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { type Person, startTestIdp, type TestIdp } from "../../helpers/oidc-idp.ts";
import { runCli } from "../../helpers/process.ts";
import { freePort } from "../../oauth/helpers.ts";
import { assertCleanPage, browserMissing, type Console, startConsole } from "../browser/harness.ts";

const missing = browserMissing();
const SLUG = "retaining-wall-pressure-calculator";

interface Contract {
  input_schema: { properties: Record<string, { title: string; enum?: string[] }> };
  examples: { input: Record<string, unknown> }[];
}

async function service(
  signup: "open" | "invite",
): Promise<{ site: Console; idp: TestIdp; env: Record<string, string> }> {
  const port = String(await freePort());
  const idp = await startTestIdp(`http://127.0.0.1:${port}/signin/callback`);
  const env = {
    TOOLRUN_DATABASE: join(mkdtempSync(join(tmpdir(), "toolrun-members-")), "toolrun.db"),
    PORT: port,
    TOOLRUN_SIGNIN_ISSUER: idp.issuer,
    TOOLRUN_SIGNIN_CLIENT_ID: idp.clientId,
    TOOLRUN_SIGNIN_CLIENT_SECRET: idp.clientSecret,
    TOOLRUN_SIGNUP: signup,
  };
  const site = await startConsole({}, env);
  return { site, idp, env };
}

async function signInThroughNav(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Your account" }).click();
  await page.getByRole("heading", { level: 1 }).waitFor();
}

describe("members in Chromium", { skip: missing ?? false }, () => {
  describe("open sign-up", () => {
    let site: Console;
    let idp: TestIdp;
    let env: Record<string, string>;
    before(async () => {
      ({ site, idp, env } = await service("open"));
    });
    after(async () => {
      await site.close();
      await idp.close();
    });

    it("signs up, lands on the account page, makes keys, runs the calculator, signs out", async () => {
      idp.signInAs({ sub: "ann", email: "ann@example.com", email_verified: true, name: "Ann Example" });
      const { page, errors } = await site.open("/");
      await signInThroughNav(page);
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Your account");
      assert.match((await page.locator("main").textContent()) ?? "", /Signed in as Ann Example/);

      await page.getByLabel("Key name", { exact: true }).fill("laptop");
      await page.getByRole("button", { name: "Create key" }).click();
      const key = (await page.locator("#new-key").textContent()) ?? "";
      assert.match(key, /^tr_live_/);
      const credits = await site.api("/v1/me/credits", key);
      assert.equal(credits.status, 200);
      // The account page itself, opened signed in: nothing foreign, accessible, fits a phone.
      for (const width of [1280, 390]) await assertCleanPage(await site.open("/member", { width }));

      await page.getByRole("button", { name: "Use a new key in this browser" }).click();
      await page.getByRole("heading", { name: "A new key is in this browser" }).waitFor();
      const stored = await page.evaluate(() => sessionStorage.getItem("toolrun.apiKey"));
      assert.match(stored ?? "", /^tr_live_/);

      const contract = (await site.api(`/v1/tool/${SLUG}`)).body as unknown as Contract;
      await page.goto(`${site.origin}/tools/${SLUG}`);
      const example = contract.examples[0]?.input ?? {};
      for (const [name, value] of Object.entries(example)) {
        const property = contract.input_schema.properties[name];
        if (!property) continue;
        const control = page.getByLabel(property.title, { exact: true });
        if (property.enum) await control.selectOption(String(value));
        else await control.fill(String(value));
      }
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await page.locator("#results:not([hidden])").waitFor();
      const usage = await site.api("/v1/me/usage", stored ?? "");
      assert.equal((usage.body as { calls: number }).calls, 1);

      await page.goto(`${site.origin}/member`);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${site.origin}/`);
      const cookies = await site.browser.cookies(site.origin);
      assert.equal(
        cookies.find((c) => c.name === "toolrun_session"),
        undefined,
      );
      assert.deepEqual(errors, []);
      const log = await runCli(["members", "list", "--json"], env);
      const members = JSON.parse(log.stdout) as { email: string }[];
      assert.deepEqual(
        members.map((m) => m.email),
        ["ann@example.com"],
      );
    });

    it("ends a disabled member's session at once", async () => {
      const bo: Person = { sub: "bo", email: "bo@example.com", email_verified: true, name: "Bo" };
      idp.signInAs(bo);
      // A new person: the provider's session of the last one goes.
      await site.browser.clearCookies();
      const { page } = await site.open("/member");
      await page.getByRole("heading", { name: "Your account" }).waitFor();
      const listed = JSON.parse((await runCli(["members", "list", "--json"], env)).stdout) as {
        id: string;
        email: string;
      }[];
      const id = listed.find((m) => m.email === "bo@example.com")?.id ?? "";
      await runCli(["members", "disable", id], env);
      await page.reload();
      await page.getByRole("heading", { name: "This member is disabled" }).waitFor();
    });
  });

  describe("invite-only", () => {
    let site: Console;
    let idp: TestIdp;
    let env: Record<string, string>;
    before(async () => {
      ({ site, idp, env } = await service("invite"));
    });
    after(async () => {
      await site.close();
      await idp.close();
    });

    it("refuses a stranger and admits an invited email into its account", async () => {
      idp.signInAs({ sub: "stranger", email: "who@example.com", email_verified: true, name: "Stranger" });
      const stranger = await site.open("/member");
      await stranger.page.getByRole("heading", { name: "You cannot sign in here" }).waitFor();

      const keys = JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout) as {
        account_id: string;
      }[];
      const account = keys[0]?.account_id ?? "";
      const invited = await runCli(["accounts", "invite", account, "Cy@Example.com"], env);
      assert.match(invited.stdout, /Invited cy@example.com/);
      idp.signInAs({ sub: "cy", email: "cy@example.com", email_verified: true, name: "Cy" });
      await site.browser.clearCookies();
      const { page } = await site.open("/member");
      await page.getByRole("heading", { name: "Your account" }).waitFor();
      assert.equal(await page.locator("#account-id").textContent(), account);
    });
  });
});
