/**
 * Registers declared routes. Keyed routes live in one encapsulated plugin whose only hook is the
 * front door, so a keyed route cannot be added without auth; every other method on a declared path
 * answers 405 with `Allow`, derived from the declarations, outside that plugin so it takes no slot.
 */
import { METHODS as HTTP_METHODS } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { AdminEntrance } from "../core/admin/entrance.ts";
import type { FrontDoor } from "../core/call/front-door.ts";
import type { EndpointSpec } from "../core/kernel/endpoint.ts";
import { ApiError } from "../core/kernel/errors.ts";
import type { AdminKeyRecord, ApiKeyRecord } from "../ports/store.ts";
import { sendProblem } from "./problem.ts";

declare module "fastify" {
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
    adminKey: AdminKeyRecord | null;
  }
  // Declared, not left to an untyped config: a plugin that declares its own route config (the
  // bench peer's @fastify/rate-limit) makes TypeScript check every route's config against it.
  interface FastifyContextConfig {
    beforeSlot?: (request: FastifyRequest, key: ApiKeyRecord) => void;
  }
}

export interface HttpRoute extends EndpointSpec {
  readonly handler: RouteHandlerMethod;
  readonly bodyLimit?: number;
  /** The route's own check that must not cost a slot (an unknown slug's 404, or one the key may not use). */
  readonly beforeSlot?: (request: FastifyRequest, key: ApiKeyRecord) => void;
}

export function keyOf(request: FastifyRequest): ApiKeyRecord {
  if (request.apiKey === null) throw new Error("keyOf called on a route outside the keyed plugin");
  return request.apiKey;
}

/** `/v1/tool/{slug}` -> `/v1/tool/:slug` */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

export function registerRoutes(
  app: FastifyInstance,
  routes: readonly HttpRoute[],
  door: FrontDoor,
  adminEntrance: AdminEntrance,
): void {
  const add = (scope: FastifyInstance, route: HttpRoute) =>
    scope.route({
      method: route.method,
      url: fastifyPath(route.path),
      handler: route.handler,
      ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
      config: { beforeSlot: route.beforeSlot },
    });
  app.register(async (keyed) => {
    keyed.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
      const { beforeSlot } = request.routeOptions.config;
      const admitted = await door.admit(request.headers.authorization, (key) => beforeSlot?.(request, key));
      request.apiKey = admitted.key;
      reply.headers(admitted.headers);
    });
    for (const route of routes.filter((r) => r.keyed)) add(keyed, route);
  });
  // The admin API: its own door, an admin key and a slot of its own window, for every route declared `admin`.
  app.register(async (admin) => {
    admin.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
      const admitted = await adminEntrance.admit(request.headers.authorization);
      request.adminKey = admitted.admin;
      reply.headers(admitted.headers);
    });
    for (const route of routes.filter((r) => r.admin === true)) add(admin, route);
  });
  for (const route of routes.filter((r) => !r.keyed && r.admin !== true)) add(app, route);
}

/** The admin key of a request on an admin route. */
export function adminKeyOf(request: FastifyRequest): AdminKeyRecord {
  if (request.adminKey === null) throw new Error("adminKeyOf called on a route outside the admin plugin");
  return request.adminKey;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** 405 with `Allow` for every method a declared path does not accept (HEAD comes with GET). */
export function registerMethodNotAllowed(
  app: FastifyInstance,
  endpoints: readonly EndpointSpec[],
  docsUrl: string,
): void {
  // Every method Node's parser accepts reaches a route (PROPFIND, MKCOL, ...), so on a declared
  // path it answers 405 rather than 404. CONNECT never does: Node hands it to 'connect' instead.
  for (const method of HTTP_METHODS) {
    if (method !== "CONNECT" && !app.supportedMethods.includes(method))
      app.addHttpMethod(method, { hasBody: true });
  }
  const byPath = new Map<string, Set<string>>();
  for (const endpoint of endpoints) {
    const methods = byPath.get(endpoint.path) ?? new Set<string>();
    methods.add(endpoint.method);
    if (endpoint.method === "GET") methods.add("HEAD");
    byPath.set(endpoint.path, methods);
  }
  for (const [path, methods] of byPath) {
    const allow = METHODS.filter((m) => methods.has(m)).join(", ");
    app.route({
      method: app.supportedMethods.filter((m) => !methods.has(m) && m !== "CONNECT"),
      url: fastifyPath(path),
      handler: (request, reply) =>
        sendProblem(
          reply,
          request,
          docsUrl,
          new ApiError("method_not_allowed", `${request.method} is not allowed here; use ${allow}.`, {
            headers: { allow },
          }),
        ),
    });
  }
}
