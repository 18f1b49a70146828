/**
 * The admin API's entrance: readiness (the front door's), then an admin key (a customer key is
 * 401), then a slot of that admin key's own window (TOOLRUN_ADMIN_RPM), never a customer's.
 */
import type { AdminKeyRecord } from "../../ports/store.ts";
import type { CoreDeps } from "../call/deps.ts";
import type { FrontDoor } from "../call/front-door.ts";
import { takeSlot } from "../call/rate-limit.ts";
import { authenticateAdmin } from "./admin-keys.ts";

export interface AdmittedAdmin {
  readonly admin: AdminKeyRecord;
  /** The RateLimit headers of the admin key's slot. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Admin keys' windows, apart from any customer key's. */
const ADMIN_WINDOW_PREFIX = "admin:";

export interface AdminEntrance {
  /** Readiness, then an admin key, then a slot of its own window (429 past TOOLRUN_ADMIN_RPM). */
  admit(authorization: string | undefined): Promise<AdmittedAdmin>;
}

export function createAdminEntrance(deps: CoreDeps, door: Pick<FrontDoor, "ready">): AdminEntrance {
  return {
    async admit(authorization) {
      await door.ready();
      const admin = await authenticateAdmin(deps.store, deps.adminKeyPattern, deps.keyPattern, authorization);
      const window = `${ADMIN_WINDOW_PREFIX}${admin.id}`;
      const slot = await takeSlot(deps.limiter, window, deps.settings.adminRpm, deps.now());
      return { admin, headers: slot.headers };
    },
  };
}
