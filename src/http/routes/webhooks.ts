/**
 * The admin API's webhooks (`/admin/v1/webhooks`): endpoints, their deliveries, a retry, a test
 * event. Declared like the other admin routes (routes/admin.ts), calling the same core functions
 * as the CLI, which write the audit log.
 */
import { ADMIN_LIST_LIMIT_DEFAULT } from "../../core/admin/schemas.ts";
import {
  createWebhook,
  deleteWebhook,
  existingWebhook,
  listDeliveries,
  listWebhooks,
  parseWebhookCreate,
  parseWebhookUpdate,
  retryDelivery,
  testWebhook,
  updateWebhook,
  webhookCreateSchema,
  webhookDeletedSchema,
  webhookDeliveryListParameters,
  webhookDeliveryListSchema,
  webhookDeliveryParameters,
  webhookDeliverySchema,
  webhookIdParameters,
  webhookListSchema,
  webhookSchema,
  webhookTestSchema,
  webhookUpdateSchema,
  webhookView,
  webhookWithSecretSchema,
} from "../../core/admin/webhooks.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import type { HttpRoute } from "../register.ts";
import { adminRoute } from "./admin.ts";

export function webhookRoutes(deps: CoreDeps): HttpRoute[] {
  const id = (args: Record<string, unknown>) => args.id as string;
  return [
    adminRoute({
      method: "POST",
      path: "/webhooks",
      operationId: "adminCreateWebhook",
      summary: "Create a webhook endpoint",
      description:
        "Registers a URL to receive the events named in `events`, signed the Standard Webhooks way, and answers its signing secret once, in `secret` (`whsec_...`). Audited as `webhooks.create`.",
      body: webhookCreateSchema,
      status: 201,
      response: webhookWithSecretSchema,
      errors: [],
      run: async ({ by, body }) => createWebhook(deps, by, parseWebhookCreate(body)),
    }),
    adminRoute({
      method: "GET",
      path: "/webhooks",
      operationId: "adminListWebhooks",
      summary: "List webhook endpoints",
      description: "Every webhook endpoint, oldest first (never their secrets).",
      response: webhookListSchema,
      errors: [],
      run: async () => listWebhooks(deps),
    }),
    adminRoute({
      method: "GET",
      path: "/webhooks/{id}",
      operationId: "adminGetWebhook",
      summary: "Read a webhook endpoint",
      description: "One webhook endpoint: its URL, events, whether it is enabled (and why not).",
      parameters: webhookIdParameters,
      response: webhookSchema,
      errors: ["webhook_not_found"],
      run: async ({ args }) => webhookView(await existingWebhook(deps, id(args))),
    }),
    adminRoute({
      method: "PATCH",
      path: "/webhooks/{id}",
      operationId: "adminUpdateWebhook",
      summary: "Update a webhook endpoint",
      description:
        "Changes the members sent (`url`, `events`, `description`, `enabled`); the others stay. Events already written keep going to the endpoints they were written for. Audited as `webhooks.update`.",
      parameters: webhookIdParameters,
      body: webhookUpdateSchema,
      response: webhookSchema,
      errors: ["webhook_not_found"],
      run: async ({ by, args, body }) => updateWebhook(deps, by, id(args), parseWebhookUpdate(body)),
    }),
    adminRoute({
      method: "DELETE",
      path: "/webhooks/{id}",
      operationId: "adminDeleteWebhook",
      summary: "Delete a webhook endpoint",
      description:
        "Removes the endpoint with its deliveries and their log; what was pending is never sent. Audited as `webhooks.delete`.",
      parameters: webhookIdParameters,
      response: webhookDeletedSchema,
      errors: ["webhook_not_found"],
      run: async ({ by, args }) => deleteWebhook(deps, by, id(args)),
    }),
    adminRoute({
      method: "GET",
      path: "/webhooks/{id}/deliveries",
      operationId: "adminListWebhookDeliveries",
      summary: "A webhook endpoint's deliveries",
      description:
        "Each event written for the endpoint, newest first, with its state (`pending`, `delivered`, `failed` once given up), when it is tried next, and every attempt: when, the status answered (or why none came), how long it took.",
      parameters: webhookDeliveryListParameters,
      response: webhookDeliveryListSchema,
      errors: ["webhook_not_found"],
      run: async ({ args }) =>
        listDeliveries(deps, id(args), {
          limit: (args.limit as number | undefined) ?? ADMIN_LIST_LIMIT_DEFAULT,
          cursor: (args.cursor as string | undefined) ?? null,
        }),
    }),
    adminRoute({
      method: "POST",
      path: "/webhooks/{id}/deliveries/{delivery_id}/retry",
      operationId: "adminRetryWebhookDelivery",
      summary: "Retry a webhook delivery",
      description:
        "Makes the delivery due now, whatever its state: a pending one is sent at once instead of at its next time, a delivered one is sent again, and one given up gets one more attempt (given up again if it fails). The same `webhook-id`. Sent within a second or so while the endpoint is enabled. Audited as `webhooks.retry`.",
      parameters: webhookDeliveryParameters,
      status: 202,
      response: webhookDeliverySchema,
      errors: ["webhook_not_found", "webhook_delivery_not_found"],
      run: async ({ by, args }) => retryDelivery(deps, by, id(args), args.delivery_id as string),
    }),
    adminRoute({
      method: "POST",
      path: "/webhooks/{id}/test",
      operationId: "adminTestWebhook",
      summary: "Send a test event",
      description:
        "Queues a `webhook.test` event for this endpoint alone (whatever events it subscribed to), delivered like any other: watch it in the deliveries. `deliveries` is 0 when the endpoint is disabled. Audited as `webhooks.test`.",
      parameters: webhookIdParameters,
      status: 202,
      response: webhookTestSchema,
      errors: ["webhook_not_found"],
      run: async ({ by, args }) => testWebhook(deps, by, id(args)),
    }),
  ];
}
