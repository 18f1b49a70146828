/**
 * The built-in tools, one line each. Operators add theirs without touching this list
 * (TOOLRUN_TOOLS and `httpTools`, docs/tools/writing-a-tool.md).
 */
import { retainingWallPressureCalculator } from "./retaining-wall-pressure-calculator/index.ts";
import type { AnyToolDefinition } from "./tool.ts";
import { webhookPayloadInspector } from "./webhook-payload-inspector/index.ts";

export const tools: readonly AnyToolDefinition[] = [retainingWallPressureCalculator, webhookPayloadInspector];
