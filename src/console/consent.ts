/**
 * The consent page of an OAuth sign-in (`/oauth/consent/{uid}`), part of the console: the client's
 * name (as text) and where the browser goes back to, a field labelled `API key` for the key whose
 * account will pay, a box per tool to narrow what the app may use (all checked at first), and the
 * buttons `Approve` and `Deny`. It works without script: the form posts
 * to the same path.
 *
 * The form carries a CSRF token bound to a cookie of this sign-in (an HMAC, under a key every
 * instance shares, of a random nonce kept in an HttpOnly, SameSite=Strict cookie, and the
 * sign-in's uid). The page is served with the console's Content-Security-Policy (no script at
 * all here, `frame-ancestors 'none'`), whose `form-action` also names the client's redirect
 * target: browsers check the redirects that follow a form's submission against it. The typed
 * key is only hashed to find its account; it is never stored, logged or sent back in a page.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createApiKey } from "../core/admin/actions.ts";
import { memberActor } from "../core/admin/members.ts";
import type { CoreDeps } from "../core/call/deps.ts";
import { hasExpired } from "../core/call/keys.ts";
import { narrowKey } from "../core/call/scope.ts";
import type { EndpointSpec } from "../core/kernel/endpoint.ts";
import { DISPLAY_SECRET_CHARS, hashKey } from "../core/kernel/key-format.ts";
import type { ConsentFlow, PendingConsent } from "../core/oauth/consent.ts";
import { CONSENT_ATTEMPTS_PER_MINUTE, takeConsentAttempt } from "../core/oauth/consent-limit.ts";
import type { MemberRecord } from "../ports/member-store.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { html, type Markup } from "./html.ts";
import { SITE_STYLES } from "./pages.ts";
import { apiTools, CONTENT_SECURITY_POLICY } from "./routes.ts";
import { memberOf } from "./signin.ts";

export const CONSENT_PAGE_PATH = "/oauth/consent/{uid}";

const CSRF_COOKIE = "toolrun_consent";
const FORM_BODY_LIMIT = 8 * 1024;

const uidParameter = {
  type: "object",
  properties: {
    uid: { type: "string", description: "The sign-in's id, from the authorization server's redirect." },
  },
};

/** The consent page's routes as the OpenAPI document and the 405 answers know them. */
export const consentEndpoints: readonly EndpointSpec[] = [
  {
    method: "GET",
    path: CONSENT_PAGE_PATH,
    operationId: "oauthConsentPage",
    parameters: uidParameter,
    summary: "OAuth: the consent page",
    description:
      "Where the authorization endpoint sends the browser: the client's name and redirect host, a field for the API key whose account will pay, and Approve / Deny. A sign-in that is not waiting (expired, or not this browser's) shows a page saying so.",
    tag: "OAuth",
    keyed: false,
    answers: [
      { status: 200, description: "The page.", contentType: "text/html" },
      { status: 400, description: "This browser has no such sign-in waiting.", contentType: "text/html" },
    ],
    errors: [],
  },
  {
    method: "POST",
    path: CONSENT_PAGE_PATH,
    operationId: "oauthConsentDecision",
    parameters: uidParameter,
    summary: "OAuth: the consent page's answer",
    description: `The page's form (\`application/x-www-form-urlencoded\`: \`csrf\`, \`api_key\`, \`decision\` = \`approve\` or \`deny\`, and \`tools\` once per checked tool with \`tools_offered\`; without \`tools_offered\` the approval is for every tool the key may use; or, with members' sign-in on, \`decision\` = \`approve_member\`: the signed-in member approves for their account with a key of it made for this authorization). Answers 303 to the authorization endpoint, which sends the browser back to the client with a code or \`access_denied\`; a key that does not sign in shows the page again saying so. Each address, and each key prefix, may try ${CONSENT_ATTEMPTS_PER_MINUTE} keys a minute.`,
    tag: "OAuth",
    keyed: false,
    requestBody: {
      contentType: "application/x-www-form-urlencoded",
      schema: {
        type: "object",
        required: ["csrf", "decision"],
        properties: {
          csrf: { type: "string" },
          api_key: { type: "string" },
          decision: { type: "string", enum: ["approve", "deny", "approve_member"] },
          tools_offered: { type: "string", description: "Set by the page: the form carries its tool boxes." },
          tools: {
            type: "array",
            items: { type: "string" },
            description: "The slug of each checked tool (a repeated field).",
          },
        },
      },
    },
    answers: [
      { status: 303, description: "On to the authorization endpoint, then the client." },
      {
        status: 400,
        description:
          "The key was not accepted (one message for every key that cannot sign in), no tool was checked or none the key may use, or the sign-in is no longer waiting.",
        contentType: "text/html",
      },
      {
        status: 429,
        description:
          "Too many keys tried in the last minute from this address, or with this key's prefix from anywhere: the page again, saying when to retry, with `Retry-After`.",
        contentType: "text/html",
      },
      {
        status: 403,
        description: "The form's CSRF token does not match this browser's cookie.",
        contentType: "text/html",
      },
    ],
    errors: [],
  },
];

function policyFor(pending: PendingConsent | null): string {
  const target = pending === null ? "" : ` ${pending.redirectSource}`;
  return CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self'${target}`);
}

function secured(reply: FastifyReply, pending: PendingConsent | null): FastifyReply {
  return reply
    .header("content-security-policy", policyFor(pending))
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header("cross-origin-opener-policy", "same-origin")
    .header("cache-control", "no-store");
}

function send(
  reply: FastifyReply,
  status: number,
  pending: PendingConsent | null,
  body: Markup,
): FastifyReply {
  return secured(reply.code(status), pending)
    .type("text/html; charset=utf-8")
    .send(`<!doctype html>${body.text}\n`);
}

function page(title: string, main: Markup): Markup {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · toolrun</title>
<link rel="icon" href="/console/icon.svg" type="image/svg+xml">
${SITE_STYLES.map((href) => html`<link rel="stylesheet" href="${href}">\n`)}</head>
<body>
<main id="main">
${main}
</main>
</body>
</html>`;
}

/** A tool the page offers to include: its slug (the box's value) and name (its label). */
interface OfferedTool {
  readonly slug: string;
  readonly name: string;
}

/**
 * One box per tool, all checked at first (and as the person left them when the page comes back):
 * the authorization may use the checked ones the key may use. `tools_offered` tells a submission
 * of this form (no box checked) from a client's older form without boxes (every tool).
 */
function toolChoice(
  tools: readonly OfferedTool[],
  chosen: ReadonlySet<string> | null,
  problem: string | null,
): Markup {
  return html`<fieldset class="group tool-choice"${problem === null ? "" : html` aria-describedby="tools-error"`}>
<legend>Tools it may use</legend>
<input type="hidden" name="tools_offered" value="1">
<p class="help">Uncheck the tools this app should not call. It can only ever use tools the key may use, and narrowing the key later narrows this approval too.</p>
${tools.map(
  (tool) =>
    html`<div class="check"><input type="checkbox" id="tool-${tool.slug}" name="tools" value="${tool.slug}"${chosen === null || chosen.has(tool.slug) ? " checked" : ""}> <label for="tool-${tool.slug}">${tool.name}</label></div>
`,
)}${problem === null ? "" : html`<p id="tools-error" class="field-error" role="alert">${problem}</p>`}
</fieldset>`;
}

/** What the page shows again after a refusal: the boxes as they were, and the message of either field. */
interface Shown {
  readonly keyProblem: string | null;
  readonly toolsProblem: string | null;
  readonly chosen: ReadonlySet<string> | null;
}

const FRESH: Shown = { keyProblem: null, toolsProblem: null, chosen: null };

/** With sign-in on: the member signed in here (who may approve for their account), or null. */
type Signed = { readonly member: MemberRecord | null } | null;

function memberChoice(pending: PendingConsent, csrf: string, signed: Signed): Markup {
  if (signed === null) return html``;
  if (signed.member === null)
    return html`<p class="member-choice">Or <a href="/signin?return=/oauth/consent/${pending.uid}">sign in</a> to approve for your account without handling a key.</p>`;
  const who = signed.member.name ?? signed.member.email ?? signed.member.id;
  return html`<form class="tool-form member-choice" method="post" action="/oauth/consent/${pending.uid}">
<input type="hidden" name="csrf" value="${csrf}">
<p>Signed in as <strong>${who}</strong>: approve for your account (a key of your account is made for this app; revoke it on <a href="/member">your account</a> to end this approval).</p>
<div class="actions"><button type="submit" name="decision" value="approve_member">Approve as ${who}</button></div>
</form>`;
}

function consentPage(
  pending: PendingConsent,
  csrf: string,
  tools: readonly OfferedTool[],
  shown: Shown,
  signed: Signed = null,
): Markup {
  const problem = shown.keyProblem;
  const described = problem === null ? "api-key-help" : "api-key-help api-key-error";
  return page(
    `Allow ${pending.clientName}`,
    html`<h1>Allow <span class="client-name">${pending.clientName}</span> to use toolrun?</h1>
<p class="lead">It will call toolrun's tools as the account of the API key you enter: its calls use that key's credits and rate limit, and show in its usage.</p>
<p>After you answer, you go back to <strong class="redirect-host">${pending.redirectTarget}</strong>.</p>
<form class="tool-form" method="post" action="/oauth/consent/${pending.uid}">
<input type="hidden" name="csrf" value="${csrf}">
<div class="field">
<label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" required aria-describedby="${described}"${problem === null ? "" : html` aria-invalid="true"`}>
<p id="api-key-help" class="help">The account that will pay. It is checked and then forgotten: toolrun keeps only the approval, which ends when the key is rotated or revoked.</p>
${problem === null ? "" : html`<p id="api-key-error" class="field-error" role="alert">${problem}</p>`}
</div>
${toolChoice(tools, shown.chosen, shown.toolsProblem)}
<div class="actions">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>
${memberChoice(pending, csrf, signed)}`,
  );
}

function gonePage(): Markup {
  return page(
    "Sign-in not found",
    html`<h1>This sign-in is not waiting here</h1>
<p class="lead">It expired, was already answered, or was started in another browser. Start again from the app you were signing in to.</p>`,
  );
}

function forbiddenPage(): Markup {
  return page(
    "Form refused",
    html`<h1>This answer was refused</h1>
<p class="lead">The form did not come from this page in this browser (its security token does not match). Go back to the app and start the sign-in again.</p>`,
  );
}

/** What the person can do about an error: wait and reload (an outage), or start again from the app. */
function errorLead(error: string): Markup {
  if (error === "temporarily_unavailable")
    return html`<p class="lead">toolrun cannot reach its database right now. Reload this page in a moment to go on with the sign-in.</p>`;
  return html`<p class="lead">The app that sent you here made a request toolrun cannot accept, so you were not sent back to it. Start again from the app; if it keeps failing, tell its maker what is shown here.</p>`;
}

/** The page the authorization server shows for an error it cannot send back to the client. */
export function oauthErrorPage(error: string, description: string): string {
  return `<!doctype html>${
    page(
      "Sign-in failed",
      html`<h1>This sign-in cannot go on</h1>
${errorLead(error)}
<dl class="problem">
<dt>error</dt><dd><code id="oauth-error">${error}</code></dd>
<dt>error_description</dt><dd id="oauth-error-description">${description}</dd>
</dl>`,
    ).text
  }\n`;
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

function csrfToken(key: Buffer, nonce: string, uid: string): string {
  return createHmac("sha256", key).update(`${nonce}.${uid}`).digest("base64url");
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What the page says of every key that cannot sign in, so it tells a guesser nothing about the key. */
const REFUSED_KEY =
  "This API key cannot sign in: it is not a current key of this service (unknown, revoked, expired, or replaced by a rotation).";

/** The account a typed key signs in as, or why it cannot, in the page's words. */
async function keyFor(
  deps: CoreDeps,
  typed: string,
): Promise<{ record: ApiKeyRecord } | { problem: string }> {
  if (typed === "") return { problem: "Enter the API key whose account will pay." };
  if (!deps.keyPattern.test(typed))
    return {
      problem: `That is not an API key of this service (they look like ${deps.settings.keyPrefix}_ and 32 letters and digits).`,
    };
  const record = await deps.store.findKeyByHash(hashKey(typed));
  // An authorization is bound to the key's current secret, so one approved with a secret a
  // rotation replaced (still working for its grace) would end as it began.
  if (
    record === null ||
    record.revokedAt !== null ||
    hasExpired(record, deps.now()) ||
    record.matched === "previous"
  )
    return { problem: REFUSED_KEY };
  return { record };
}

/** The tools the page offers: those callable over the API, as the console lists them. */
async function offeredTools(deps: CoreDeps): Promise<OfferedTool[]> {
  return (await apiTools(deps)).map((tool) => ({ slug: tool.slug, name: tool.definition.name }));
}

/**
 * The tools the form chose: null (no narrowing) when every offered box is checked (so when none
 * was offered), or the form has none (a client's form from before the boxes); else the checked
 * ones this service has.
 */
function chosenTools(form: URLSearchParams, offered: readonly OfferedTool[]): { tools: string[] | null } {
  if (form.get("tools_offered") === null) return { tools: null };
  const checked = new Set(form.getAll("tools"));
  const tools = offered.filter((tool) => checked.has(tool.slug)).map((tool) => tool.slug);
  return { tools: tools.length === offered.length ? null : tools };
}

/** Why the chosen tools cannot make an authorization: none checked, or none the key may use. */
function toolsRefusal(choice: { tools: readonly string[] | null }, key: ApiKeyRecord): string | null {
  if (choice.tools === null) return null;
  if (choice.tools.length === 0) return "Check at least one tool: an approval with no tool could do nothing.";
  if (narrowKey(key, choice.tools).tools?.length === 0)
    return "This API key may use none of the checked tools. Check one it may use.";
  return null;
}

/** The typed key's non-secret display prefix, when it has the shape of a key. */
function displayPrefixOf(deps: CoreDeps, typed: string): string | null {
  return deps.keyPattern.test(typed)
    ? typed.slice(0, deps.settings.keyPrefix.length + 1 + DISPLAY_SECRET_CHARS)
    : null;
}

export function registerConsentPage(
  app: FastifyInstance,
  deps: CoreDeps,
  flow: ConsentFlow<IncomingMessage, ServerResponse>,
  /** Members may sign in: a signed-in member may approve for their account without a key. */
  members = false,
): void {
  const signedOf = async (request: FastifyRequest): Promise<Signed> =>
    members ? { member: await memberOf(deps, request, flow.secure) } : null;
  const path = "/oauth/consent/:uid";
  const cookieFor = (uid: string, nonce: string, maxAge = 3600) =>
    `${CSRF_COOKIE}=${nonce}; Path=/oauth/consent/${uid}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${flow.secure ? "; Secure" : ""}`;

  async function showForm(
    request: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
    pending: PendingConsent,
    status: number,
    shown: Shown,
  ): Promise<FastifyReply> {
    const nonce = randomBytes(24).toString("base64url");
    reply.header("set-cookie", cookieFor(request.params.uid, nonce));
    const csrf = csrfToken(await flow.csrfKey(), nonce, pending.uid);
    return send(
      reply,
      status,
      pending,
      consentPage(pending, csrf, await offeredTools(deps), shown, await signedOf(request)),
    );
  }

  app.get<{ Params: { uid: string } }>(path, async (request, reply) => {
    const pending = await flow.pending(request.raw, reply.raw, request.params.uid);
    if (pending === null) return send(reply, 400, null, gonePage());
    return showForm(request, reply, pending, 200, FRESH);
  });

  app.post<{ Params: { uid: string } }>(path, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const { uid } = request.params;
    const form = new URLSearchParams(Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "");
    const nonce = cookieOf(request, CSRF_COOKIE);
    const sent = form.get("csrf") ?? "";
    if (nonce === undefined || !sameToken(sent, csrfToken(await flow.csrfKey(), nonce, uid)))
      return send(reply, 403, null, forbiddenPage());
    const pending = await flow.pending(request.raw, reply.raw, uid);
    if (pending === null) return send(reply, 400, null, gonePage());

    const choice = chosenTools(form, await offeredTools(deps));
    const chosen = choice.tools === null ? null : new Set(choice.tools);
    const refuse = (status: number, problem: Omit<Shown, "chosen">) =>
      showForm(request, reply, pending, status, { ...problem, chosen });
    let next: string | null;
    if (form.get("decision") === "deny") {
      next = await flow.deny(request.raw, reply.raw, uid);
    } else if (form.get("decision") === "approve_member" && members) {
      const member = await memberOf(deps, request, flow.secure);
      if (member === null)
        return refuse(400, {
          keyProblem: "Sign in again to approve for your account, or enter an API key.",
          toolsProblem: null,
        });
      // A key of the member's account made for this authorization: it pays, and revoking it ends the approval.
      const created = await createApiKey(deps, memberActor(member, request.id), {
        accountId: member.accountId,
        plan: "",
        name: `OAuth: ${pending.clientName}`.slice(0, 200),
        monthlyAllowance: null,
        expiresAt: null,
        metadata: {},
        tools: null,
        access: "full",
      });
      next = await flow.approve(request.raw, reply.raw, uid, created.record, hashKey(created.key), null);
    } else {
      const typed = (form.get("api_key") ?? "").trim();
      if (typed !== "") {
        const full = await takeConsentAttempt(
          deps.limiter,
          request.ip,
          displayPrefixOf(deps, typed),
          deps.now(),
        );
        if (full !== null) {
          reply.headers({ ...full.headers, "retry-after": String(full.resetSeconds) });
          return refuse(429, {
            keyProblem: `Too many API keys were tried here in the last minute. Wait ${full.resetSeconds} s, then try again.`,
            toolsProblem: null,
          });
        }
      }
      const found = await keyFor(deps, typed);
      if ("problem" in found) return refuse(400, { keyProblem: found.problem, toolsProblem: null });
      const toolsProblem = toolsRefusal(choice, found.record);
      if (toolsProblem !== null) return refuse(400, { keyProblem: null, toolsProblem });
      next = await flow.approve(request.raw, reply.raw, uid, found.record, hashKey(typed), choice.tools);
    }
    if (next === null) return send(reply, 400, null, gonePage());
    // The form is answered: its cookie goes.
    reply.header("set-cookie", cookieFor(uid, "", 0));
    return secured(reply.code(303), pending).header("location", next).send();
  });
}
