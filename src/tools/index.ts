/**
 * The explicit list of tools, one line each. Adding a tool is one folder and one line here.
 */
import { retainingWallPressureCalculator } from "./retaining-wall-pressure-calculator/index.ts";
import type { AnyToolDefinition } from "./tool.ts";
import { webhookPayloadInspector } from "./webhook-payload-inspector/index.ts";

export const tools: readonly AnyToolDefinition[] = [retainingWallPressureCalculator, webhookPayloadInspector];
