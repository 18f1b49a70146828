/**
 * The explicit list of tools, one line each. Adding a tool is one folder and one line here.
 */
import { retainingWallPressureCalculator } from "./retaining-wall-pressure-calculator/index.ts";
import type { AnyTool } from "./tool.ts";
import { webhookPayloadInspector } from "./webhook-payload-inspector/index.ts";

export const tools: readonly AnyTool[] = [retainingWallPressureCalculator, webhookPayloadInspector];
