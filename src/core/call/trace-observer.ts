/**
 * A metered call's outcome on the span current when it ends (the HTTP request's, or the MCP
 * message's): the key's id, the tool, the credits charged and how the call ended.
 */
import type { Telemetry } from "../../ports/telemetry.ts";
import {
  GEN_AI_TOOL_NAME,
  TOOLRUN_CREDITS,
  TOOLRUN_KEY_ID,
  TOOLRUN_OUTCOME,
} from "../../ports/trace-attributes.ts";
import type { Observer } from "./observer.ts";

/** `observer` (the metrics), with each call's outcome written on its span as well. */
export function withTracedCalls(observer: Observer | undefined, telemetry: Telemetry): Observer {
  return {
    toolCall(event) {
      observer?.toolCall(event);
      telemetry.current()?.set({
        [TOOLRUN_KEY_ID]: event.keyId,
        [GEN_AI_TOOL_NAME]: event.tool,
        [TOOLRUN_CREDITS]: event.credits,
        [TOOLRUN_OUTCOME]: event.outcome,
      });
    },
    backendError(backend) {
      observer?.backendError(backend);
    },
  };
}
