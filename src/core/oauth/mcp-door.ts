/**
 * What the MCP endpoint accepts when OAuth is on: an API key (anything of the key's form), which
 * works exactly as everywhere, or an OAuth access token for this resource; every 401 carries the
 * OAuth challenge. The door is the front door every entrance has, readiness, 401 and slots in the
 * same order, given these credentials.
 */
import type { CoreDeps } from "../call/deps.ts";
import { apiKeyCredentials, createFrontDoor, type FrontDoor } from "../call/front-door.ts";
import type { Readiness } from "../call/readiness.ts";
import { accessTokenVerifier } from "./access-tokens.ts";
import { oauthChallenge } from "./challenge.ts";
import type { OAuthSettings } from "./settings.ts";

/** The MCP endpoint's front door with OAuth on; `readiness` is shared with the app's other door. */
export function mcpFrontDoor(deps: CoreDeps, settings: OAuthSettings, readiness?: Readiness): FrontDoor {
  return createFrontDoor(deps, {
    ...(readiness ? { readiness } : {}),
    credentials: {
      verifiers: [...apiKeyCredentials(deps).verifiers, accessTokenVerifier(deps.store, settings)],
      challenge: (refusal) => oauthChallenge(settings, refusal),
    },
  });
}
