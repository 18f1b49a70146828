/**
 * oidc-provider's storage adapter over the Store's OAuth port: the library calls it once per model
 * (`Client`, `Grant`, `AccessToken`, `AuthorizationCode`, `RefreshToken`, `Session`,
 * `Interaction`, ...) and this maps each call onto the port. Only SHA-256 hashes of ids reach
 * the store (clients and grants keep their ids: they are not secrets, and operators see them),
 * and the id is left out of what is stored, so a database read gives no usable token.
 *
 * Using a code or rotating a refresh token is atomic in the store: a second use, even one racing
 * the first on another instance, revokes the whole authorization and is refused with
 * `invalid_grant`, as the library itself does for a use it sees came second.
 */

import type { Adapter, AdapterPayload } from "oidc-provider";
import { errors } from "oidc-provider";
import { hashKey } from "../../core/kernel/key-format.ts";
import type { OAuthStore } from "../../ports/oauth-store.ts";

/** Used for a model saved without a lifetime (the library gives every one it stores here one). */
const DEFAULT_LIFETIME_S = 365 * 24 * 3600;

const USED_TWICE: Readonly<Record<string, string>> = {
  AuthorizationCode: "authorization code already consumed",
  RefreshToken: "refresh token already used",
};

export type AdapterClass = new (model: string) => Adapter;

export function storeAdapter(store: OAuthStore, now: () => Date): AdapterClass {
  const at = () => now().toISOString();
  return class StoreAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = new Date(now().getTime() + (expiresIn ?? DEFAULT_LIFETIME_S) * 1000).toISOString();
      if (this.model === "Client") return store.saveOAuthClient(id, JSON.stringify(payload), at());
      if (this.model === "Grant") {
        return store.saveOAuthAuthorization({
          id,
          keyId: String(payload.accountId),
          clientId: String(payload.clientId),
          payload: JSON.stringify(payload),
          createdAt: at(),
          expiresAt,
        });
      }
      const { jti: _id, ...kept } = payload;
      return store.saveOAuthArtifact({
        model: this.model,
        idHash: hashKey(id),
        payload: JSON.stringify(kept),
        grantId: typeof payload.grantId === "string" ? payload.grantId : null,
        uid: typeof payload.uid === "string" ? payload.uid : null,
        expiresAt,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === "Client") return parsed(await store.findOAuthClient(id));
      if (this.model === "Grant") return parsed(await store.findOAuthAuthorization(id, at()));
      const stored = await store.findOAuthArtifact(this.model, hashKey(id), at());
      if (stored === null) return undefined;
      return {
        ...(JSON.parse(stored.payload) as AdapterPayload),
        jti: id,
        ...(stored.consumedAt === null ? {} : { consumed: Math.floor(Date.parse(stored.consumedAt) / 1000) }),
      };
    }

    /** Sessions only. The id is not kept, so the session found this way has none: the library only reads it. */
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const stored = await store.findOAuthArtifactByUid(this.model, uid, at());
      return stored === null ? undefined : (JSON.parse(stored.payload) as AdapterPayload);
    }

    async findByUserCode(): Promise<undefined> {
      // The device flow is not enabled: no user codes exist.
      return undefined;
    }

    async consume(id: string): Promise<void> {
      const outcome = await store.consumeOAuthArtifact(this.model, hashKey(id), at());
      if (outcome.first) return;
      if (outcome.grantId !== null) await store.revokeOAuthGrant(outcome.grantId);
      throw new errors.InvalidGrant(USED_TWICE[this.model] ?? `${this.model} already used`);
    }

    async destroy(id: string): Promise<void> {
      if (this.model === "Grant") return store.revokeOAuthGrant(id);
      // Registered clients stay (registration management, which could delete them, is off).
      if (this.model === "Client") return;
      return store.destroyOAuthArtifact(this.model, hashKey(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      return store.revokeOAuthGrant(grantId);
    }
  };
}

function parsed(json: string | null): AdapterPayload | undefined {
  return json === null ? undefined : (JSON.parse(json) as AdapterPayload);
}
