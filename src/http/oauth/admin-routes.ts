/**
 * The admin API's view of a key's OAuth authorizations: list them, revoke one. Declared like the
 * other admin routes (routes/admin.ts), calling the same core functions as the CLI.
 */

import { keyIdParameters } from "../../core/admin/schemas.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import {
  authorizationListSchema,
  authorizationParameters,
  deauthorize,
  deauthorizedSchema,
  listAuthorizations,
} from "../../core/oauth/authorizations.ts";
import type { HttpRoute } from "../register.ts";
import { adminRoute } from "../routes/admin.ts";

export function oauthAdminRoutes(deps: CoreDeps): HttpRoute[] {
  return [
    adminRoute({
      method: "GET",
      path: "/keys/{id}/authorizations",
      operationId: "adminListKeyAuthorizations",
      summary: "A key's OAuth authorizations",
      description:
        "The OAuth authorizations that act for the key now (approved on the consent page by someone who typed the key), oldest first. Rotating or revoking the key ends them all, and they are no longer listed.",
      parameters: keyIdParameters,
      response: authorizationListSchema,
      errors: ["key_not_found"],
      run: async ({ args }) => listAuthorizations(deps, args.id as string),
    }),
    adminRoute({
      method: "DELETE",
      path: "/keys/{id}/authorizations/{authorization_id}",
      operationId: "adminRevokeKeyAuthorization",
      summary: "Revoke a key's OAuth authorization",
      description:
        "Ends one authorization at once: its access and refresh tokens stop working, and its client must sign in again. The key itself is unchanged. Audited as `keys.deauthorize`.",
      parameters: authorizationParameters,
      response: deauthorizedSchema,
      errors: ["key_not_found", "authorization_not_found"],
      run: async ({ by, args }) => deauthorize(deps, by, args.id as string, args.authorization_id as string),
    }),
  ];
}
