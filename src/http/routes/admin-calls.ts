/**
 * Who called, and the usage export, in the admin API: `GET /admin/v1/calls` (JSON, cursor) and
 * `GET /admin/v1/usage/events` (NDJSON, one CloudEvents 1.0 event a settled call; its next cursor
 * in a header, as the body holds the events alone). The CLI calls the same core functions.
 */
import {
  callListSchema,
  callsParameters,
  listCallViews,
  MORE_HEADER,
  NDJSON_TYPE,
  NEXT_CURSOR_HEADER,
  readUsageEvents,
  usageEventsParameters,
} from "../../core/admin/calls.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import type { HttpRoute } from "../register.ts";
import { adminRoute, type RawAnswer } from "./admin.ts";

export function adminCallRoutes(deps: CoreDeps): HttpRoute[] {
  return [
    adminRoute({
      method: "GET",
      path: "/calls",
      operationId: "adminListCalls",
      summary: "List calls",
      description:
        "Recorded calls, newest first, a page at a time, with who made each: the key, the credential (`key` or the `authz_...` OAuth authorization) and its client, the transport (`http`, `mcp`) and the MCP client's clientInfo. Filters: `account`, `key`, `tool`, `outcome`, and `since`/`until` on the call's time. No request body is stored.",
      parameters: callsParameters,
      response: callListSchema,
      errors: [],
      run: async ({ args }) => listCallViews(deps.store, args),
    }),
    adminRoute({
      method: "GET",
      path: "/usage/events",
      operationId: "adminExportUsage",
      summary: "Export usage events",
      description: `The settled calls (charged or refunded; a reservation still pending is not given until it settles) as NDJSON, one CloudEvents 1.0 event a line: \`id\` the call's id, \`type\` \`toolrun.call\`, \`subject\` the account, \`time\` the settlement. In settlement order, the same ids in the same order on every read; a call settling later always comes after what was already given. Each line is one JSON object (see docs/operations.md for its members and their mapping to OpenMeter, Stripe meter events, Lago and Orb). The \`${NEXT_CURSOR_HEADER}\` header holds where the next read starts (given again as \`cursor\`, even from an empty page); \`${MORE_HEADER}: true\` when more events are ready now. \`since\`/\`until\` filter on the settlement time.`,
      parameters: usageEventsParameters,
      contentType: NDJSON_TYPE,
      headers: {
        [NEXT_CURSOR_HEADER]: {
          description:
            "Where the next read starts: pass it as `cursor`. Absent only when nothing was ever read.",
          schema: { type: "string" },
        },
        [MORE_HEADER]: {
          description: "`true` when more events are ready now: read again with the cursor at once.",
          schema: { type: "string", enum: ["true", "false"] },
        },
      },
      errors: [],
      run: async ({ args }): Promise<RawAnswer> => {
        const page = await readUsageEvents(deps, args);
        return {
          raw: page.ndjson,
          headers: {
            ...(page.nextCursor !== null && { [NEXT_CURSOR_HEADER]: page.nextCursor }),
            [MORE_HEADER]: String(page.more),
          },
        };
      },
    }),
  ];
}
