/**
 * The admin API in tests: an admin key made the way `toolrun admin-keys create` makes it, and
 * requests to `/admin/v1` with it.
 */
import type { LightMyRequestResponse } from "fastify";
import { createAdminKey } from "../../src/core/admin/admin-keys.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { bearer, json, type TestApp } from "../helpers/app.ts";

export interface AdminClient {
  readonly key: string;
  readonly id: string;
  get(path: string): Promise<LightMyRequestResponse>;
  post(path: string, body?: unknown): Promise<LightMyRequestResponse>;
  patch(path: string, body: unknown): Promise<LightMyRequestResponse>;
  delete(path: string): Promise<LightMyRequestResponse>;
}

export async function adminClient(t: TestApp, name = "ops"): Promise<AdminClient> {
  const created = await createAdminKey(t.deps, cliActor("test"), name);
  const send = (method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/admin/v1${path}`,
      headers: body === undefined ? bearer(created.key) : json(bearer(created.key)),
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  return {
    key: created.key,
    id: created.record.id,
    get: (path) => send("GET", path),
    post: (path, body) => send("POST", path, body),
    patch: (path, body) => send("PATCH", path, body),
    delete: (path) => send("DELETE", path),
  };
}
