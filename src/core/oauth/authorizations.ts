/**
 * A key's OAuth authorizations (what its holder approved on the consent page; not to be confused
 * with credit grants), as the admin API and the CLI list and revoke them through these same
 * functions. Revoking one removes every code and token issued under it, with its audit entry in
 * the same transaction of the store.
 *
 * The id shown is the library's grant id behind `authz_`: those ids are base64url, and one in 64
 * begins with "-", which a command line would read as an option.
 */
import type { OAuthAuthorizationRecord } from "../../ports/oauth-store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import type { AdminDeps } from "../admin/actions.ts";
import { existing } from "../admin/actions.ts";
import { type ActedBy, auditEntry } from "../admin/audit.ts";
import { nullable, SCHEMA_DIALECT } from "../contract/schemas.ts";
import { ApiError } from "../kernel/errors.ts";

export interface AuthorizationView {
  id: string;
  client_id: string;
  client_name: string | null;
  resource: string[];
  scope: string;
  /** The tools the person narrowed it to at consent; null for every tool its key may use. */
  tools: string[] | null;
  created_at: string;
  expires_at: string;
}

export interface AuthorizationListView {
  key_id: string;
  authorizations: AuthorizationView[];
}

export interface DeauthorizedView {
  key_id: string;
  authorization_id: string;
  revoked: true;
}

const ID_PREFIX = "authz_";

/** The library's grant id for a shown id; null for an id this service never showed. */
/** The id an authorization is shown (and its calls recorded) under. */
export function shownAuthorizationId(grantId: string): string {
  return ID_PREFIX + grantId;
}

function grantId(shownId: string): string | null {
  return shownId.startsWith(ID_PREFIX) ? shownId.slice(ID_PREFIX.length) : null;
}

/** The parts of the library's stored authorization a listing shows. */
interface GrantPayload {
  readonly resources?: Readonly<Record<string, string>>;
  readonly openid?: { readonly scope?: string };
}

function view(record: OAuthAuthorizationRecord): AuthorizationView {
  const grant = JSON.parse(record.payload) as GrantPayload;
  const resources = grant.resources ?? {};
  const scopes = new Set(
    [...Object.values(resources), grant.openid?.scope ?? ""].flatMap((s) => s.split(" ")).filter(Boolean),
  );
  return {
    id: shownAuthorizationId(record.id),
    client_id: record.clientId,
    client_name: record.clientName,
    resource: Object.keys(resources),
    scope: [...scopes].join(" "),
    tools: record.tools === null ? null : [...record.tools],
    created_at: record.createdAt,
    expires_at: record.expiresAt,
  };
}

/** The key's authorizations that act for it now, oldest first; 404 `key_not_found` for no such key. */
export async function listAuthorizations(deps: AdminDeps, keyId: string): Promise<AuthorizationListView> {
  const key = await existing(deps.store, keyId);
  const records = await deps.store.listOAuthAuthorizations(key.id, deps.now().toISOString());
  return { key_id: key.id, authorizations: records.map(view) };
}

/** Revokes one of the key's authorizations, audited as `keys.deauthorize`. */
export async function deauthorize(
  deps: AdminDeps,
  by: ActedBy,
  keyId: string,
  authorizationId: string,
): Promise<DeauthorizedView> {
  const key = await existing(deps.store, keyId);
  const grant = grantId(authorizationId);
  const revoked =
    grant !== null &&
    (await deps.store.revokeOAuthAuthorization(
      key.id,
      grant,
      auditEntry(by, deps.now(), "keys.deauthorize", key.id, { authorization_id: authorizationId }),
    ));
  if (!revoked)
    throw new ApiError("authorization_not_found", "The key has no OAuth authorization with this id.");
  return { key_id: key.id, authorization_id: authorizationId, revoked: true };
}

const timestamp: JsonSchema = { type: "string", format: "date-time" };

const authorizationItem: JsonSchema = {
  type: "object",
  required: ["id", "client_id", "client_name", "resource", "scope", "tools", "created_at", "expires_at"],
  properties: {
    id: { type: "string", pattern: "^authz_", description: "The authorization's id, for revoking it." },
    client_id: {
      type: "string",
      description: "The OAuth client: a registered id, or the URL of its client ID metadata document.",
    },
    client_name: { ...nullable({ type: "string" }), description: "The name the consent page showed." },
    resource: {
      type: "array",
      items: { type: "string" },
      description: "The protected resources (the MCP endpoint).",
    },
    scope: { type: "string", description: "The scopes approved, space-separated." },
    tools: {
      ...nullable({ type: "array", items: { type: "string" } }),
      description:
        "The tools the person narrowed it to on the consent page (it uses those its key may use too); null for every tool the key may use.",
    },
    created_at: timestamp,
    expires_at: {
      ...timestamp,
      description: "When it ends unless refreshed tokens keep it in use; revoking ends it at once.",
    },
  },
};

export const authorizationListSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["key_id", "authorizations"],
  properties: {
    key_id: { type: "string" },
    authorizations: { type: "array", items: authorizationItem, description: "Oldest first." },
  },
};

export const deauthorizedSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["key_id", "authorization_id", "revoked"],
  properties: {
    key_id: { type: "string" },
    authorization_id: { type: "string" },
    revoked: { type: "boolean", const: true },
  },
};

const keyId: JsonSchema = {
  type: "string",
  minLength: 1,
  maxLength: 100,
  description: "The key's id (`key_...`).",
};

export const authorizationParameters: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  required: ["id", "authorization_id"],
  properties: {
    id: keyId,
    authorization_id: {
      type: "string",
      minLength: 1,
      maxLength: 100,
      description: "The authorization's id, from `GET /admin/v1/keys/{id}/authorizations`.",
    },
  },
};
