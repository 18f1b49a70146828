/**
 * The behaviour hints every toolrun tool earns: tools are pure computations over their input, so
 * they change nothing in the world, repeat identically and reach nothing outside the service.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/server";

export const TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const satisfies ToolAnnotations;
