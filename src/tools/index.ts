/**
 * The explicit list of tools, one line each. Adding a tool is one folder and one line here.
 */
import { retainingWallPressureCalculator } from "./retaining-wall-pressure-calculator/index.ts";
import type { AnyTool } from "./tool.ts";

export const tools: readonly AnyTool[] = [retainingWallPressureCalculator];
