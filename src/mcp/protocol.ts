/**
 * What the MCP endpoint serves and how it names itself: the protocol revisions (2026-07-28 is
 * negotiated through `server/discover`, the 2025 ones through `initialize`) and the server identity.
 */
import pkg from "../../package.json" with { type: "json" };

export const MCP_PATH = "/mcp";

export const MODERN_REVISION = "2026-07-28";

/** The 2025-era revisions clients still use; an `initialize` naming any other is answered with the first. */
export const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** Newest first: the SDK offers the first 2025-era entry when a client asks for a revision not listed. */
export const SUPPORTED_REVISIONS: readonly string[] = [MODERN_REVISION, ...LEGACY_REVISIONS];

export const SERVER_INFO = { name: "toolrun", version: pkg.version } as const;

export const INSTRUCTIONS =
  "Each tool named by a slug runs a toolrun tool and costs credits (the price is in its description); " +
  "search_tools, describe_tool, get_credits and get_usage are free. A failed call returns isError with an " +
  'RFC 9457 problem document (as text, and in _meta["toolrun/problem"]) whose `code` says what went wrong; ' +
  "refused and failed calls cost nothing.";
