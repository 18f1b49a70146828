/**
 * The front door of the MCP endpoint when OAuth is on: the same door (readiness, 401, slots) in
 * the same order, where the bearer credential may be an API key (anything that starts with the
 * key prefix), which works exactly as before, or an OAuth access token for this resource. Every
 * 401 here carries the OAuth challenge.
 */

import type { CoreDeps } from "../call/deps.ts";
import type { FrontDoor } from "../call/front-door.ts";
import { bearerCredential } from "../call/keys.ts";
import { ApiError } from "../kernel/errors.ts";
import { authenticateAccessToken } from "./access-tokens.ts";
import { oauthChallenge, sentBearer } from "./challenge.ts";
import type { OAuthSettings } from "./settings.ts";

export function withAccessTokens(door: FrontDoor, deps: CoreDeps, settings: OAuthSettings): FrontDoor {
  const keyLike = `${deps.settings.keyPrefix}_`;
  return {
    ...door,
    async authenticate(authorization) {
      const credential = bearerCredential(authorization);
      if (credential !== undefined && !credential.startsWith(keyLike)) {
        await door.ready();
        return authenticateAccessToken(deps.store, settings, credential, deps.now());
      }
      try {
        return await door.authenticate(authorization);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "invalid_api_key") throw error;
        throw new ApiError("invalid_api_key", error.detail, {
          headers: {
            ...error.headers,
            "www-authenticate": oauthChallenge(
              settings,
              sentBearer(authorization) ? (error.detail ?? error.title) : null,
            ),
          },
        });
      }
    },
  };
}
