/**
 * The behaviour hints of the MCP tools, true to what a call does to the caller's account. The
 * tools are pure computations that reach nothing outside the service (never open-world, never
 * destructive), but a charged call spends credits: it changes the account, and every repeat spends
 * again, so it is neither read-only nor idempotent. A free read, or any call while metering is off,
 * changes nothing (a rate-limit slot is traffic, not state the tool changes).
 */
import type { ToolAnnotations } from "@modelcontextprotocol/server";

export function toolAnnotations(title: string, charged: boolean): ToolAnnotations {
  return {
    title,
    readOnlyHint: !charged,
    destructiveHint: false,
    idempotentHint: !charged,
    openWorldHint: false,
  };
}
