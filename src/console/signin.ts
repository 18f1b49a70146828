/**
 * Members' sign-in to the console with OpenID Connect, and the signed-in member's account page.
 * On only when the operator set TOOLRUN_SIGNIN_*; otherwise none of this is registered and the
 * console is as it always was.
 *
 * - `GET /signin` sends the browser to the provider: authorization code with PKCE (S256), a
 *   `state` and a `nonce`, all three kept in a short-lived HttpOnly cookie of this browser (so any
 *   instance can finish the sign-in); `GET /signin/callback` checks them through openid-client
 *   (the state must match, the ID token's nonce too, the code is exchanged with the verifier),
 *   and the cookie goes whatever the outcome, so a replayed callback has nothing to match.
 * - Who may sign in and which account they join is the core's (core/admin/members.ts); the
 *   session is a random token in a cookie (`__Host-` on https), stored as a hash, sliding 7 days.
 * - Every state-changing request (`POST`) carries the session's CSRF token in the form (`csrf`),
 *   checked here; without it, 403 `csrf_token_invalid`. The API never reads this cookie.
 * - Key actions are the admin actions (core/admin/actions.ts) with the member as the actor, on
 *   the member's own account's keys only.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import { createApiKey, existing, revokeApiKey, rotateApiKey } from "../core/admin/actions.ts";
import { callView } from "../core/admin/calls.ts";
import { type KnownTool, knownTool } from "../core/admin/input.ts";
import {
  csrfTokenOf,
  endSession,
  type MemberSettings,
  memberActor,
  sessionMember,
  signIn,
  startSession,
} from "../core/admin/members.ts";
import { startCheckout } from "../core/billing/checkout.ts";
import type { Billing } from "../core/billing/packs.ts";
import type { CoreDeps } from "../core/call/deps.ts";
import { getCredits } from "../core/contract/account.ts";
import type { EndpointSpec } from "../core/kernel/endpoint.ts";
import { ApiError } from "../core/kernel/errors.ts";
import type { MemberRecord } from "../ports/member-store.ts";
import type { ApiKeyRecord, KeyAccess } from "../ports/store.ts";
import { html, type Markup } from "./html.ts";
import { checkoutNotice, layout, type PageContext, packList } from "./pages.ts";
import { CONTENT_SECURITY_POLICY } from "./routes.ts";

/** What the console needs of the sign-in configuration (config.ts's SigninConfig). */
export interface SigninOptions {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly secure: boolean;
  readonly members: MemberSettings;
}

export const MEMBER_PAGE_PATH = "/member";
const FORM_BODY_LIMIT = 8 * 1024;
/** How long a sign-in may take at the provider. */
const SIGNIN_COOKIE_MAX_AGE_S = 600;
const SESSION_MAX_AGE_S = 7 * 24 * 60 * 60;

const FORM = {
  contentType: "application/x-www-form-urlencoded",
  schema: { type: "object", required: ["csrf"], properties: { csrf: { type: "string" } } },
};

const memberForm = (path: string, operationId: string, summary: string): EndpointSpec => ({
  method: "POST",
  path,
  operationId,
  summary,
  description:
    "A form of the signed-in member's account page, with the session's CSRF token in `csrf`; refused (403 `csrf_token_invalid`) without it. Without a session, 303 to `/signin`.",
  tag: "Console",
  keyed: false,
  requestBody: FORM,
  answers: [
    { status: 200, description: "The account page, with the outcome.", contentType: "text/html" },
    { status: 303, description: "Not signed in: on to `/signin` (or, signed out, to `/`)." },
    { status: 403, description: "The CSRF token is missing or wrong.", contentType: "text/html" },
  ],
  errors: [],
});

/** The sign-in's routes, as the 405 answers know them (pages for browsers, not API). */
export const signinEndpoints: readonly EndpointSpec[] = [
  {
    method: "GET",
    path: "/signin",
    operationId: "consoleSignin",
    summary: "Console: sign in with the operator's OpenID provider",
    tag: "Console",
    keyed: false,
    answers: [{ status: 303, description: "On to the provider." }],
    errors: [],
  },
  {
    method: "GET",
    path: "/signin/callback",
    operationId: "consoleSigninCallback",
    summary: "Console: where the provider sends the browser back",
    tag: "Console",
    keyed: false,
    answers: [
      { status: 303, description: "Signed in: on to the account page." },
      { status: 400, description: "The sign-in failed.", contentType: "text/html" },
      { status: 403, description: "Not invited, or disabled.", contentType: "text/html" },
    ],
    errors: [],
  },
  {
    method: "GET",
    path: MEMBER_PAGE_PATH,
    operationId: "consoleMember",
    summary: "Console: the signed-in member's account",
    tag: "Console",
    keyed: false,
    answers: [
      { status: 200, description: "The page.", contentType: "text/html" },
      { status: 303, description: "Not signed in: on to `/signin`." },
    ],
    errors: [],
  },
  memberForm("/signout", "consoleSignout", "Console: sign out"),
  memberForm(`${MEMBER_PAGE_PATH}/keys`, "consoleMemberCreateKey", "Console: create a key of the account"),
  memberForm(
    `${MEMBER_PAGE_PATH}/checkout`,
    "consoleMemberCheckout",
    "Console: buy a pack of credits (on to Stripe Checkout)",
  ),
  memberForm(
    `${MEMBER_PAGE_PATH}/browser-key`,
    "consoleMemberBrowserKey",
    "Console: a new key for this browser",
  ),
  memberForm(
    `${MEMBER_PAGE_PATH}/keys/rotate`,
    "consoleMemberRotateKey",
    "Console: rotate a key of the account",
  ),
  memberForm(
    `${MEMBER_PAGE_PATH}/keys/revoke`,
    "consoleMemberRevokeKey",
    "Console: revoke a key of the account",
  ),
];

/** A member's session, as the console's member routes see it. */
interface Signed {
  readonly member: MemberRecord;
  readonly token: string;
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header("content-security-policy", CONTENT_SECURITY_POLICY)
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header("cross-origin-opener-policy", "same-origin")
    .header("cache-control", "no-store");
}

/** The session cookie's name: `__Host-` on https, so no subdomain or path can set or shadow it. */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Host-" : ""}toolrun_session`;
}

/** The signed-in member of this request (its session then slides); null when none. */
export async function memberOf(
  deps: CoreDeps,
  request: FastifyRequest,
  secure: boolean,
): Promise<MemberRecord | null> {
  const token = cookieOf(request, sessionCookieName(secure));
  return token === undefined ? null : sessionMember(deps, token);
}

/** Where a sign-in may return to: the member page, or an OAuth consent page waiting in this browser. */
function returnPath(raw: string | undefined): string {
  return raw !== undefined && /^\/oauth\/consent\/[A-Za-z0-9_-]{1,100}$/.test(raw) ? raw : MEMBER_PAGE_PATH;
}

export function registerSignin(
  app: FastifyInstance,
  deps: CoreDeps,
  options: SigninOptions,
  ctx: PageContext,
  billing: Billing | null = null,
): void {
  const prefix = options.secure ? "__Host-" : "";
  const SESSION_COOKIE = sessionCookieName(options.secure);
  const SIGNIN_COOKIE = `${prefix}toolrun_signin`;
  const cookie = (name: string, value: string, maxAge: number) =>
    `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${options.secure ? "; Secure" : ""}`;

  let discovered: Promise<client.Configuration> | undefined;
  /** The provider's metadata, fetched on the first sign-in (and again after a failure). */
  function provider(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        new URL(options.issuer),
        options.clientId,
        options.clientSecret,
        undefined,
        new URL(options.issuer).protocol === "http:"
          ? { execute: [client.allowInsecureRequests] }
          : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  const send = (reply: FastifyReply, status: number, body: string) =>
    secure(reply.code(status)).type("text/html; charset=utf-8").send(body);
  const page = (title: string, main: Markup) =>
    layout(ctx, "member", title, html`<div class="member-page">${main}</div>`);
  const messagePage = (reply: FastifyReply, status: number, title: string, lead: Markup) =>
    send(reply, status, page(title, html`<h1>${title}</h1>\n${lead}`));

  async function signedIn(request: FastifyRequest): Promise<Signed | null> {
    const token = cookieOf(request, SESSION_COOKIE);
    if (token === undefined) return null;
    const member = await sessionMember(deps, token);
    return member === null ? null : { member, token };
  }

  /** The form of a state-changing request, once its CSRF token is the session's; null: refused. */
  function checkedForm(request: FastifyRequest, signed: Signed): URLSearchParams | null {
    const form = new URLSearchParams(Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "");
    return sameToken(form.get("csrf") ?? "", csrfTokenOf(signed.token)) ? form : null;
  }

  function refusedForm(reply: FastifyReply): FastifyReply {
    const error = new ApiError("csrf_token_invalid", "");
    return messagePage(
      reply,
      error.status,
      "This request was refused",
      html`<p class="lead">It did not come from this console's own page in this browser (its security token <code>csrf_token_invalid</code> is missing or wrong). Nothing was changed. Go back to <a href="${MEMBER_PAGE_PATH}">your account</a> and try again.</p>`,
    );
  }

  app.get<{ Querystring: { return?: string } }>("/signin", async (request, reply) => {
    let config: client.Configuration;
    try {
      config = await provider();
    } catch {
      return messagePage(
        reply,
        503,
        "Sign-in is not available",
        html`<p class="lead">toolrun cannot reach its sign-in provider right now. Try again in a moment.</p>`,
      );
    }
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: options.redirectUri,
      scope: "openid email profile",
      response_type: "code",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    reply.header(
      "set-cookie",
      cookie(
        SIGNIN_COOKIE,
        `${state}.${nonce}.${verifier}.${Buffer.from(returnPath(request.query.return)).toString("base64url")}`,
        SIGNIN_COOKIE_MAX_AGE_S,
      ),
    );
    return secure(reply.code(303)).header("location", url.href).send();
  });

  app.get("/signin/callback", async (request, reply) => {
    const kept = cookieOf(request, SIGNIN_COOKIE);
    // This sign-in's checks are used once: the cookie goes whatever happens next.
    reply.header("set-cookie", cookie(SIGNIN_COOKIE, "", 0));
    const [state, nonce, verifier, back] = (kept ?? "").split(".");
    const failed = () =>
      messagePage(
        reply,
        400,
        "Sign-in failed",
        html`<p class="lead">This sign-in could not be completed (it expired, was already used, or was not started in this browser). <a href="/signin">Sign in again</a>.</p>`,
      );
    if (!state || !nonce || !verifier) return failed();
    let identity: Parameters<typeof signIn>[2];
    try {
      const config = await provider();
      const current = new URL(request.url, options.redirectUri);
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return failed();
      let email = typeof claims.email === "string" ? claims.email : null;
      let verified = claims.email_verified === true;
      let name = typeof claims.name === "string" ? claims.name : null;
      if (email === null) {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof info.email === "string" ? info.email : null;
        verified = info.email_verified === true;
        name ??= typeof info.name === "string" ? info.name : null;
      }
      identity = { issuer: claims.iss, subject: claims.sub, email, emailVerified: verified, name };
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, "sign-in callback refused");
      return failed();
    }
    const outcome = await signIn(deps, options.members, identity, request.id);
    if (!outcome.ok) {
      return messagePage(
        reply,
        403,
        outcome.reason === "disabled" ? "This member is disabled" : "You cannot sign in here",
        outcome.reason === "disabled"
          ? html`<p class="lead">The operator of this service disabled your membership. Ask them to enable it.</p>`
          : html`<p class="lead">Signing in here is by invitation, and no invitation is waiting for this account's verified email. Ask the operator of this service to invite you.</p>`,
      );
    }
    const token = await startSession(deps, outcome.member);
    reply.header("set-cookie", [
      cookie(SIGNIN_COOKIE, "", 0),
      cookie(SESSION_COOKIE, token, SESSION_MAX_AGE_S),
    ]);
    const next = returnPath(back === undefined ? undefined : Buffer.from(back, "base64url").toString("utf8"));
    return secure(reply.code(303)).header("location", next).send();
  });

  app.get<{ Querystring: { checkout?: unknown } }>(MEMBER_PAGE_PATH, async (request, reply) => {
    const signed = await signedIn(request);
    if (signed === null) return secure(reply.code(303)).header("location", "/signin").send();
    const notice = checkoutNotice(request.query.checkout);
    return send(reply, 200, page("Your account", await accountMain(signed, notice === "" ? null : notice)));
  });

  /** A POST of the member page: signed in (else to the sign-in), its CSRF token checked. */
  function memberPost(
    path: string,
    act: (
      signed: Signed,
      form: URLSearchParams,
      request: FastifyRequest,
    ) => Promise<Markup | "signed-out" | { readonly redirect: string }>,
  ): void {
    app.post(path, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
      const signed = await signedIn(request);
      if (signed === null) return secure(reply.code(303)).header("location", "/signin").send();
      const form = checkedForm(request, signed);
      if (form === null) return refusedForm(reply);
      const shown = await act(signed, form, request);
      if (shown === "signed-out") {
        reply.header("set-cookie", cookie(SESSION_COOKIE, "", 0));
        return secure(reply.code(303)).header("location", "/").send();
      }
      if ("redirect" in shown) return secure(reply.code(303)).header("location", shown.redirect).send();
      return send(reply, 200, page("Your account", shown));
    });
  }

  memberPost("/signout", async (signed) => {
    await endSession(deps, signed.token);
    return "signed-out";
  });

  memberPost(`${MEMBER_PAGE_PATH}/keys`, async (signed, form, request) => {
    const name = (form.get("name") ?? "").trim().slice(0, 200) || "console";
    const expires = (form.get("expires") ?? "").trim();
    const expiresAt = expires === "" ? null : dateEnd(expires, deps.now());
    if (expiresAt === undefined)
      return accountMain(
        signed,
        html`<p class="field-error" role="alert">The expiry must be a date after today.</p>`,
      );
    const scope = keyScope(form, deps.registry.all().length, knownTool(deps));
    if ("problem" in scope)
      return accountMain(signed, html`<p class="field-error" role="alert">${scope.problem}</p>`);
    const created = await createApiKey(deps, memberActor(signed.member, request.id), {
      accountId: signed.member.accountId,
      plan: "",
      name,
      monthlyAllowance: null,
      expiresAt,
      metadata: {},
      tools: scope.tools,
      access: scope.access,
    });
    return accountMain(signed, shownOnce(`Created key ${created.record.name}`, created.key));
  });

  if (billing !== null)
    memberPost(`${MEMBER_PAGE_PATH}/checkout`, async (signed, form, request) => {
      try {
        return await startCheckout(
          billing,
          deps.settings.publicUrl,
          signed.member.accountId,
          form.get("pack") ?? "",
          MEMBER_PAGE_PATH,
        ).then(({ url }) => ({ redirect: url }));
      } catch (error) {
        const shown = ["validation_error", "payment_provider_unavailable"];
        if (!(error instanceof ApiError) || !shown.includes(error.code)) throw error;
        if (error.code === "payment_provider_unavailable")
          request.log.warn(
            { err: { message: error.cause instanceof Error ? error.cause.message : String(error.cause) } },
            "stripe: the checkout was not created",
          );
        return accountMain(
          signed,
          html`<p class="field-error" role="alert">${
            error.code === "payment_provider_unavailable"
              ? "Stripe did not open the checkout; nothing was bought. Try again in a moment."
              : "There is no such pack."
          }</p>`,
        );
      }
    });

  memberPost(`${MEMBER_PAGE_PATH}/browser-key`, async (signed, _form, request) => {
    const created = await createApiKey(deps, memberActor(signed.member, request.id), {
      accountId: signed.member.accountId,
      plan: "",
      name: "browser",
      monthlyAllowance: null,
      expiresAt: null,
      metadata: {},
      tools: null,
      access: "full",
    });
    return accountMain(
      signed,
      html`<section class="notice" id="browser-key" data-key="${created.key}" aria-live="polite">
<h2>A new key is in this browser</h2>
<p>Key <code>${created.record.displayPrefix}…</code> is kept in this tab (session storage), where the tool pages read it: <a href="/">run a tool</a>.</p>
</section>`,
    );
  });

  memberPost(`${MEMBER_PAGE_PATH}/keys/rotate`, async (signed, form, request) => {
    const key = await ownKey(signed, form.get("key_id"));
    if (key === null) return accountMain(signed, notYours());
    const rotated = await rotateApiKey(deps, memberActor(signed.member, request.id), key.id);
    return accountMain(signed, shownOnce(`Rotated key ${rotated.record.name}`, rotated.key));
  });

  memberPost(`${MEMBER_PAGE_PATH}/keys/revoke`, async (signed, form, request) => {
    const key = await ownKey(signed, form.get("key_id"));
    if (key === null) return accountMain(signed, notYours());
    await revokeApiKey(deps, memberActor(signed.member, request.id), key.id);
    return accountMain(
      signed,
      html`<p class="notice" role="status">Revoked key <code>${key.displayPrefix}…</code>.</p>`,
    );
  });

  /** The key, when it is an active key of the member's account; null otherwise (never another's). */
  async function ownKey(signed: Signed, id: string | null): Promise<ApiKeyRecord | null> {
    if (id === null || !/^key_[A-Za-z0-9]{1,64}$/.test(id)) return null;
    const key = await existing(deps.store, id).catch(() => null);
    return key !== null && key.accountId === signed.member.accountId && key.revokedAt === null ? key : null;
  }

  async function accountMain(signed: Signed, notice: Markup | null): Promise<Markup> {
    const { member } = signed;
    const csrf = csrfTokenOf(signed.token);
    const account = await deps.store.getAccount(member.accountId);
    const keys = await deps.store.listAccountKeys(member.accountId);
    const active = keys.filter((k) => k.revokedAt === null);
    // The account's own figures (one balance, one ledger), with or without a key.
    const holder = account && { ...account, accountId: account.id, accountName: account.name };
    const credits = holder ? await getCredits(deps, holder) : null;
    const recent = account
      ? (await deps.store.listCalls({ accountId: account.id, limit: 10, cursor: null })).calls.map(callView)
      : [];
    const hidden = html`<input type="hidden" name="csrf" value="${csrf}">`;
    const tools = deps.registry.all();
    return html`<h1>Your account</h1>
<p class="lead">Signed in as <strong id="member-name">${member.name ?? member.email ?? member.id}</strong>${member.email ? html` (${member.email})` : ""}, member of account <code id="account-id">${member.accountId}</code>${account ? html` on plan <strong>${account.plan}</strong>` : ""}.</p>
${notice ?? ""}
<section aria-labelledby="balance-title">
<h2 id="balance-title">Balance</h2>
${
  credits
    ? html`<dl class="figures">
<dt>Monthly allowance</dt><dd id="monthly-allowance">${credits.monthly_allowance ?? "unmetered"}</dd>
<dt>Used this month</dt><dd id="credits-used">${credits.credits_used}</dd>
<dt>Allowance left</dt><dd id="monthly-remaining">${credits.monthly_remaining ?? "unmetered"}</dd>
<dt>Credits remaining (with grants)</dt><dd id="credits-remaining">${credits.credits_remaining ?? "unmetered"}</dd>
</dl>
${
  credits.grants.length === 0
    ? html`<p id="grants-none">No grants.</p>`
    : html`<div class="table-wrap"><table id="grants"><caption>Grants, in the order calls spend them once the allowance is used</caption>
<thead><tr><th scope="col">Grant</th><th scope="col">Kind</th><th scope="col">Credits left</th><th scope="col">Expires</th></tr></thead>
<tbody>${credits.grants.map(
        (grant) =>
          html`<tr><td><code>${grant.id}</code></td><td>${grant.category}</td><td>${grant.remaining}</td><td>${grant.expires_at ?? "never"}</td></tr>`,
      )}</tbody></table></div>`
}`
    : html`<p>The account's balance cannot be read right now.</p>`
}
${
  billing === null
    ? html`<p class="help">Buying credits is not offered here; ask the operator of this service for a grant.</p>`
    : html`<h3 id="buy-title">Buy credits</h3>
${packList(
  billing.packs,
  (pack) =>
    html`<form method="post" action="${MEMBER_PAGE_PATH}/checkout" class="inline">${hidden}<input type="hidden" name="pack" value="${pack.id}"><button type="submit" aria-label="Buy ${pack.name}">Buy</button></form>`,
)}
<p class="help">Paid through Stripe Checkout, for this account: every key of the account spends them.</p>`
}
</section>
${
  recent.length > 0
    ? html`<section aria-labelledby="usage-title">
<h2 id="usage-title">Recent calls</h2>
<div class="table-wrap"><table data-output="member-recent"><thead><tr><th scope="col">Time</th><th scope="col">Tool</th><th scope="col">Credits</th><th scope="col">Via</th><th scope="col">Client</th></tr></thead>
<tbody>${recent.map((call) => html`<tr><td>${call.at}</td><td>${call.tool}</td><td>${call.credits}</td><td>${call.transport === null ? "unknown" : call.transport.toUpperCase()}</td><td>${clientLabel(call.client)}</td></tr>`)}</tbody></table></div>
</section>`
    : ""
}
<section aria-labelledby="keys-title">
<h2 id="keys-title">Keys</h2>
${
  active.length === 0
    ? html`<p>The account has no active key.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
<tbody>${active.map(
        (
          k,
        ) => html`<tr><td>${k.name}</td><td><code>${k.displayPrefix}…</code></td><td>${k.expiresAt ?? "never"}</td><td>
<form method="post" action="${MEMBER_PAGE_PATH}/keys/rotate" class="inline">${hidden}<input type="hidden" name="key_id" value="${k.id}"><button type="submit" aria-label="Rotate ${k.name} (${k.displayPrefix}…)">Rotate</button></form>
<form method="post" action="${MEMBER_PAGE_PATH}/keys/revoke" class="inline">${hidden}<input type="hidden" name="key_id" value="${k.id}"><button type="submit" class="secondary" aria-label="Revoke ${k.name} (${k.displayPrefix}…)">Revoke</button></form>
</td></tr>`,
      )}</tbody></table></div>`
}
<form method="post" action="${MEMBER_PAGE_PATH}/keys" class="tool-form">
${hidden}
<h3>Create a key</h3>
<div class="field"><label for="key-name">Key name</label><input id="key-name" name="name" maxlength="200" autocomplete="off"></div>
<div class="field"><label for="key-expires">Expires on</label><input id="key-expires" name="expires" type="date" aria-describedby="key-expires-help"><p id="key-expires-help" class="help">Leave empty for a key that does not expire.</p></div>
<fieldset class="group tool-choice" aria-describedby="key-tools-help">
<legend>Tools it may use</legend>
<input type="hidden" name="tools_offered" value="1">
<p id="key-tools-help" class="help">With every tool checked, the key may also use tools added later.</p>
${tools.map(
  (tool) =>
    html`<div class="check"><input type="checkbox" id="key-tool-${tool.slug}" name="tools" value="${tool.slug}" checked> <label for="key-tool-${tool.slug}">${tool.definition.name}</label></div>
`,
)}</fieldset>
<fieldset class="group tool-choice">
<legend>Access</legend>
<div class="check"><input type="radio" id="key-access-full" name="access" value="full" checked> <label for="key-access-full">Full: may call its tools</label></div>
<div class="check"><input type="radio" id="key-access-read" name="access" value="read" aria-describedby="key-access-read-help"> <label for="key-access-read">Read-only</label></div>
<p id="key-access-read-help" class="help">Only the free reads (catalog, search, schemas, its credits and usage); a tool call is refused.</p>
</fieldset>
<div class="actions"><button type="submit">Create key</button></div>
</form>
<form method="post" action="${MEMBER_PAGE_PATH}/browser-key" class="tool-form">
${hidden}
<p>Make a key for this browser and keep it in this tab, so the tool pages run at once.</p>
<div class="actions"><button type="submit">Use a new key in this browser</button></div>
</form>
</section>
<form method="post" action="/signout">
${hidden}
<div class="actions"><button type="submit" class="secondary">Sign out</button></div>
</form>`;
  }
}

function shownOnce(title: string, key: string): Markup {
  return html`<section class="notice" aria-labelledby="new-key-title">
<h2 id="new-key-title">${title}</h2>
<p>Copy it now: it is shown only this once.</p>
<p><code id="new-key">${key}</code></p>
</section>`;
}

/**
 * The scope the create-a-key form chose. Every box checked is every tool (null), so the key also
 * gets tools added later; a form without the boxes (`tools_offered`) is every tool, full access.
 */
function keyScope(
  form: URLSearchParams,
  offered: number,
  known: KnownTool,
): { tools: string[] | null; access: KeyAccess } | { problem: string } {
  const access = form.get("access") ?? "full";
  if (access !== "full" && access !== "read") return { problem: "The access must be full or read-only." };
  if (form.get("tools_offered") === null) return { tools: null, access };
  const checked = new Set(form.getAll("tools"));
  const unknown = [...checked].filter((slug) => !known(slug));
  if (unknown.length > 0) return { problem: `No tool has the slug ${unknown.join(", ")}.` };
  if (checked.size === 0) return { problem: "Check at least one tool: a key with no tool could do nothing." };
  return { tools: checked.size === offered ? null : [...checked], access };
}

function notYours(): Markup {
  return html`<p class="field-error" role="alert">That is not an active key of your account.</p>`;
}

/** The end (UTC) of a `YYYY-MM-DD` date from the form; undefined when not a date or not after now. */
function dateEnd(raw: string, now: Date): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined;
  const end = Date.parse(`${raw}T23:59:59.999Z`);
  if (!Number.isFinite(end) || end <= now.getTime() || end > Date.parse("9999-12-31T00:00:00Z"))
    return undefined;
  return new Date(end).toISOString();
}

/** How the account page names the client of a call: MCP's clientInfo, else the OAuth client, else a dash. */
function clientLabel(client: ReturnType<typeof callView>["client"]): string {
  if (client === null) return "—";
  const named = [client.name, client.version].filter((part) => part !== null).join(" ");
  return named !== "" ? named : (client.id ?? "—");
}
