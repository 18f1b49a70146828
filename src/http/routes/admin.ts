/**
 * The admin API (`/admin/v1`): customer keys, credit grants, usage, tool switches and the audit
 * log, for operators with an admin key. Each route is declared once here (the OpenAPI document and
 * the 405s come from it) and calls the same core functions as the CLI, which write the audit log.
 * Registered `admin`: the front door's admin entrance authenticates it and takes a slot of the admin
 * key's own window.
 */
import type { FastifyRequest } from "fastify";
import {
  createApiKey,
  existing,
  revokeApiKey,
  rotateApiKey,
  setToolSwitch,
  updateApiKey,
} from "../../core/admin/actions.ts";
import { type ActedBy, readAuditLog } from "../../core/admin/audit.ts";
import { grantThisMonth } from "../../core/admin/grants.ts";
import {
  grantSchema,
  keyCreateSchema,
  keyUpdateSchema,
  knownTool,
  parseGrant,
  parseKeyCreate,
  parseKeyUpdate,
  parseRotate,
  parseSwitch,
  refuseNulCharacters,
  rotateSchema,
  switchSchema,
} from "../../core/admin/input.ts";
import { keyView, listKeyViews } from "../../core/admin/key-view.ts";
import {
  accountIdParameters,
  existingMember,
  inviteAnswerSchema,
  inviteMember,
  inviteSchema,
  listMemberViews,
  memberIdParameters,
  memberListParameters,
  memberListSchema,
  memberSchema,
  memberView,
  parseInvite,
  setMemberStatus,
} from "../../core/admin/members.ts";
import {
  ADMIN_LIST_LIMIT_DEFAULT,
  auditParameters,
  auditSchema,
  keyIdParameters,
  keyListParameters,
  keyListSchema,
  keySchema,
  keyUsageParameters,
  keyUsageSchema,
  keyWithSecretSchema,
  toolParameters,
  toolSwitchListSchema,
  toolSwitchSchema,
} from "../../core/admin/schemas.ts";
import { toolSwitchView, toolSwitchViews } from "../../core/admin/tool-switches.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import { parseJsonBody } from "../../core/call/json-body.ts";
import { getCredits, getUsage, USAGE_LIMIT_DEFAULT } from "../../core/contract/account.ts";
import { JSON_TYPE, type ResponseHeader } from "../../core/kernel/endpoint.ts";
import { ApiError, type ErrorCode } from "../../core/kernel/errors.ts";
import { type InputValidator, lazyInputValidator } from "../../core/kernel/validation.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { queryArgs } from "../query.ts";
import { adminKeyOf, type HttpRoute } from "../register.ts";
import { noteCall } from "../request-log.ts";

/** Admin bodies are small; anything larger is a mistake. */
const ADMIN_BODY_LIMIT = 64 * 1024;

type Args = Record<string, unknown>;

export interface AdminCall {
  readonly by: ActedBy;
  readonly args: Args;
  /** The parsed JSON body; undefined for routes without one. */
  readonly body: unknown;
}

export interface AdminRouteSpec {
  readonly method: HttpRoute["method"];
  /** Below `/admin/v1`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters?: JsonSchema;
  readonly body?: JsonSchema;
  /** The body may be left out: `body` is then undefined. */
  readonly bodyOptional?: boolean;
  readonly status?: number;
  /** Another success the route may answer with the same schema (`run` gives it withStatus). */
  readonly also?: { readonly status: number; readonly description: string };
  /** The JSON answer's schema; absent for a route with its own `contentType`. */
  readonly response?: JsonSchema;
  /** The answer's type when it is not JSON: `run` then answers a RawAnswer. */
  readonly contentType?: string;
  /** The headers the answer documents. */
  readonly headers?: Readonly<Record<string, ResponseHeader>>;
  readonly errors: readonly ErrorCode[];
  run(call: AdminCall): Promise<object | OtherStatus>;
}

/** An answer sent as it is (a route with its own `contentType`), with the headers that go with it. */
export interface RawAnswer {
  readonly raw: string;
  readonly headers: Readonly<Record<string, string>>;
}

export function adminRoute(spec: AdminRouteSpec): HttpRoute {
  const checkArgs = spec.parameters ? lazyInputValidator(spec.parameters) : undefined;
  const status = spec.status ?? 200;
  const errors = new Set<ErrorCode>(spec.errors);
  if (checkArgs || spec.body) errors.add("validation_error");
  return {
    method: spec.method,
    path: `/admin/v1${spec.path}`,
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description} Needs an admin key; takes a slot of the admin key's own per-minute window (\`TOOLRUN_ADMIN_RPM\`), never a customer key's.`,
    tag: "Admin",
    keyed: false,
    admin: true,
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.body
      ? { requestBody: { contentType: JSON_TYPE, schema: spec.body, optional: spec.bodyOptional === true } }
      : {}),
    answers: [
      {
        status,
        description: spec.summary,
        contentType: spec.contentType ?? JSON_TYPE,
        ...(spec.response && { schema: spec.response }),
        ...(spec.headers && { headers: spec.headers }),
      },
      ...(spec.also
        ? [{ ...spec.also, contentType: JSON_TYPE, ...(spec.response && { schema: spec.response }) }]
        : []),
    ],
    errors: [...errors],
    bodyLimit: ADMIN_BODY_LIMIT,
    handler: async (request, reply) => {
      const admin = adminKeyOf(request);
      noteCall(request, { keyId: admin.id });
      const args = checkArgs ? validArgs(checkArgs, spec.parameters as JsonSchema, request) : {};
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const body = spec.body && !(spec.bodyOptional && raw.length === 0) ? parseJsonBody(raw) : undefined;
      const answer = await spec.run({
        by: { actor: { type: "admin_key", id: admin.id }, requestId: request.id },
        args,
        body,
      });
      if (spec.contentType !== undefined) {
        const { raw, headers } = answer as RawAnswer;
        return reply.code(status).headers(headers).type(spec.contentType).send(raw);
      }
      if (OTHER_STATUS in answer) return reply.code(answer[OTHER_STATUS]).send(answer.body);
      return reply.code(status).send(answer);
    },
  };
}

const OTHER_STATUS = Symbol("status");

interface OtherStatus {
  readonly [OTHER_STATUS]: number;
  readonly body: object;
}

/** An answer with the route's other success status (AdminRouteSpec.also). */
export function withStatus(status: number, body: object): OtherStatus {
  return { [OTHER_STATUS]: status, body };
}

function validArgs(check: InputValidator, parameters: JsonSchema, request: FastifyRequest): Args {
  const args = { ...queryArgs(parameters, request.query), ...(request.params as Args) };
  refuseNulCharacters(args, "The parameters are invalid.");
  const checked = check(args);
  if (!checked.ok) {
    throw new ApiError("validation_error", "The parameters are invalid.", {
      extras: { fields: checked.fields },
    });
  }
  return checked.value;
}

const page = (args: Args, fallback: number) => ({
  limit: (args.limit as number | undefined) ?? fallback,
  cursor: (args.cursor as string | undefined) ?? null,
});

export function adminRoutes(deps: CoreDeps): HttpRoute[] {
  const view = (record: Parameters<typeof keyView>[0], secret?: string) =>
    keyView(record, deps.settings, deps.now(), secret);
  const id = (args: Args) => args.id as string;
  return [
    adminRoute({
      method: "POST",
      path: "/keys",
      operationId: "adminCreateKey",
      summary: "Create a key",
      description:
        "Creates a customer key and answers it once, in `key`; only its hash is stored. With `account_id` it is a credential of that account (its plan, allowance, grants, balance and per-minute window); without, it gets a one-key account of its own from `plan`, as a key always had. Audited as `keys.create`.",
      body: keyCreateSchema,
      status: 201,
      response: keyWithSecretSchema,
      errors: ["account_not_found"],
      run: async ({ by, body }) => {
        const created = await createApiKey(deps, by, parseKeyCreate(body, deps.settings, knownTool(deps)));
        return view(created.record, created.key);
      },
    }),
    adminRoute({
      method: "GET",
      path: "/keys",
      operationId: "adminListKeys",
      summary: "List keys",
      description: "Every customer key, oldest first, a page at a time (never their secrets).",
      parameters: keyListParameters,
      response: keyListSchema,
      errors: [],
      run: async ({ args }) => listKeyViews(deps, page(args, ADMIN_LIST_LIMIT_DEFAULT)),
    }),
    adminRoute({
      method: "GET",
      path: "/keys/{id}",
      operationId: "adminGetKey",
      summary: "Read a key",
      description: "One customer key: plan, allowance this month with its grants, status, expiry, metadata.",
      parameters: keyIdParameters,
      response: keySchema,
      errors: ["key_not_found"],
      run: async ({ args }) => view(await existing(deps.store, id(args))),
    }),
    adminRoute({
      method: "PATCH",
      path: "/keys/{id}",
      operationId: "adminUpdateKey",
      summary: "Update a key",
      description:
        "Changes the members sent (plan, name, own monthly allowance, metadata, expiry); the others stay. Takes effect on the key's next request. The plan and the allowance are the key's account's, so they change for every key of the account (audited as `accounts.update` on the account); the rest is the key's own (audited as `keys.update`). A revoked key cannot be changed.",
      parameters: keyIdParameters,
      body: keyUpdateSchema,
      response: keySchema,
      errors: ["key_not_found", "key_revoked", "account_not_found"],
      run: async ({ by, args, body }) =>
        view(await updateApiKey(deps, by, id(args), parseKeyUpdate(body, deps.settings, knownTool(deps)))),
    }),
    adminRoute({
      method: "POST",
      path: "/keys/{id}/rotate",
      operationId: "adminRotateKey",
      summary: "Rotate a key",
      description:
        "Gives the key a new secret, answered once in `key`. Same account, same balance. Without a body (or without `grace_seconds`) the old secret stops working at once; with `grace_seconds` it keeps working beside the new one until `previous_secret_expires_at`, and a secret an earlier rotation left working stops at once (one old secret at most). Either way the key's OAuth authorizations end at once. Revoking the key ends the old secret too, and the key's expiry applies to both. Audited as `keys.rotate` (with the grace).",
      parameters: keyIdParameters,
      body: rotateSchema,
      bodyOptional: true,
      response: keyWithSecretSchema,
      errors: ["key_not_found", "key_revoked"],
      run: async ({ by, args, body }) => {
        const rotated = await rotateApiKey(deps, by, id(args), parseRotate(body));
        return view(rotated.record, rotated.key);
      },
    }),
    adminRoute({
      method: "POST",
      path: "/keys/{id}/revoke",
      operationId: "adminRevokeKey",
      summary: "Revoke a key",
      description: "Revokes the key at once: its next request answers 401. Audited as `keys.revoke`.",
      parameters: keyIdParameters,
      response: keySchema,
      errors: ["key_not_found", "key_revoked"],
      run: async ({ by, args }) => view(await revokeApiKey(deps, by, id(args))),
    }),
    adminRoute({
      method: "POST",
      path: "/keys/{id}/grants",
      operationId: "adminGrantCredits",
      summary: "Grant credits",
      description:
        "Gives the key's account a promotional grant of credits that lapses when the current calendar month (UTC) ends, shared by every key of the account (as `POST /admin/v1/accounts/{id}/grants` with that `expires_at`). `GET /v1/me/credits` shows it in `grants` and `credits_remaining`; `monthly_allowance` and `credits_used` are unchanged. Audited as `credits.grant` on the account; sends the `credits.granted` webhook event.",
      parameters: keyIdParameters,
      body: grantSchema,
      response: keySchema,
      errors: ["key_not_found", "key_revoked"],
      run: async ({ by, args, body }) => {
        await grantThisMonth(deps, by, id(args), parseGrant(body));
        return view(await existing(deps.store, id(args)));
      },
    }),
    adminRoute({
      method: "GET",
      path: "/keys/{id}/usage",
      operationId: "adminKeyUsage",
      summary: "A key's usage",
      description:
        "What the key itself reads at `GET /v1/me/credits` and `GET /v1/me/usage` this month, from the same ledger: its account's figures.",
      parameters: keyUsageParameters,
      response: keyUsageSchema,
      errors: ["key_not_found"],
      run: async ({ args }) => {
        const record = await existing(deps.store, id(args));
        return {
          key_id: record.id,
          credits: await getCredits(deps, record, record),
          usage: await getUsage(deps, record, page(args, USAGE_LIMIT_DEFAULT)),
        };
      },
    }),
    adminRoute({
      method: "GET",
      path: "/tools",
      operationId: "adminListToolSwitches",
      summary: "Tool switches",
      description: "Every tool with its operator switches as stored now.",
      response: toolSwitchListSchema,
      errors: [],
      run: async () => ({ tools: await toolSwitchViews(deps) }),
    }),
    adminRoute({
      method: "PATCH",
      path: "/tools/{slug}",
      operationId: "adminSetToolSwitch",
      summary: "Set a tool's switches",
      description:
        "Stores the switches sent (`enabled`, `api`); every instance applies them within seconds. Audited as `tools.set`.",
      parameters: toolParameters,
      body: switchSchema,
      response: toolSwitchSchema,
      errors: ["tool_not_found"],
      run: async ({ by, args, body }) => {
        const slug = args.slug as string;
        await setToolSwitch(deps, by, slug, parseSwitch(body));
        return toolSwitchView(deps, slug);
      },
    }),
    adminRoute({
      method: "GET",
      path: "/members",
      operationId: "adminListMembers",
      summary: "List members",
      description:
        "The people who signed in to the console (with `TOOLRUN_SIGNIN_*` set), oldest first, a page at a time; `account_id` keeps one account's.",
      parameters: memberListParameters,
      response: memberListSchema,
      errors: [],
      run: async ({ args }) =>
        listMemberViews(deps, {
          ...page(args, ADMIN_LIST_LIMIT_DEFAULT),
          accountId: (args.account_id as string | undefined) ?? null,
        }),
    }),
    adminRoute({
      method: "GET",
      path: "/members/{id}",
      operationId: "adminGetMember",
      summary: "Read a member",
      description: "One member: its provider identity, verified email, account, status and last sighting.",
      parameters: memberIdParameters,
      response: memberSchema,
      errors: ["member_not_found"],
      run: async ({ args }) => memberView(await existingMember(deps.store, id(args))),
    }),
    adminRoute({
      method: "POST",
      path: "/members/{id}/disable",
      operationId: "adminDisableMember",
      summary: "Disable a member",
      description:
        "The member's console sessions end at once and it cannot sign in again until enabled. Its account and keys are untouched. Audited as `members.disable`.",
      parameters: memberIdParameters,
      response: memberSchema,
      errors: ["member_not_found"],
      run: async ({ by, args }) => memberView(await setMemberStatus(deps, by, id(args), "disabled")),
    }),
    adminRoute({
      method: "POST",
      path: "/members/{id}/enable",
      operationId: "adminEnableMember",
      summary: "Enable a member",
      description:
        "The member may sign in again (its ended sessions stay ended). Audited as `members.enable`.",
      parameters: memberIdParameters,
      response: memberSchema,
      errors: ["member_not_found"],
      run: async ({ by, args }) => memberView(await setMemberStatus(deps, by, id(args), "active")),
    }),
    adminRoute({
      method: "POST",
      path: "/accounts/{id}/members",
      operationId: "adminInviteMember",
      summary: "Invite a member",
      description:
        "Lets the email sign in to the console and join the account, when the provider says it verified it (matched without regard to case); with `TOOLRUN_SIGNUP=invite` only invited emails may sign in. A later invite of the same email names the other account instead. Audited as `members.invite`.",
      parameters: accountIdParameters,
      body: inviteSchema,
      status: 201,
      response: inviteAnswerSchema,
      errors: ["account_not_found"],
      run: async ({ by, args, body }) => inviteMember(deps, by, id(args), parseInvite(body).email),
    }),
    adminRoute({
      method: "GET",
      path: "/audit",
      operationId: "adminAuditLog",
      summary: "Audit log",
      description:
        "Every admin API and CLI action, newest first: who (an admin key, or `cli` with the operating-system user), what, on what, when, and the admin request's id.",
      parameters: auditParameters,
      response: auditSchema,
      errors: [],
      run: async ({ args }) =>
        readAuditLog(deps.store, {
          ...page(args, ADMIN_LIST_LIMIT_DEFAULT),
          target: (args.target as string | undefined) ?? null,
        }),
    }),
  ];
}
