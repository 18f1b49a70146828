/**
 * The names of the span attributes toolrun writes, in one place. They follow OpenTelemetry's
 * semantic conventions at pinned versions (docs/operations.md says which, and that MCP's are still
 * marked development); the names that are toolrun's own start with `toolrun.`.
 */

/** HTTP server and client spans (stable conventions). */
export const HTTP_REQUEST_METHOD = "http.request.method";
export const HTTP_RESPONSE_STATUS_CODE = "http.response.status_code";
export const HTTP_ROUTE = "http.route";
export const URL_PATH = "url.path";
export const URL_SCHEME = "url.scheme";
export const URL_FULL = "url.full";
export const SERVER_ADDRESS = "server.address";
export const SERVER_PORT = "server.port";
export const ERROR_TYPE = "error.type";

/** MCP server spans (development conventions). */
export const MCP_METHOD_NAME = "mcp.method.name";
export const MCP_PROTOCOL_VERSION = "mcp.protocol.version";
export const JSONRPC_REQUEST_ID = "jsonrpc.request.id";
export const RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";
export const GEN_AI_TOOL_NAME = "gen_ai.tool.name";
export const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
export const NETWORK_TRANSPORT = "network.transport";
export const NETWORK_PROTOCOL_NAME = "network.protocol.name";
/** `error.type` of a tool call whose result is `isError`. */
export const TOOL_ERROR = "tool_error";

/**
 * What a metered call did, on the span of the call (the HTTP request's, or the MCP message's).
 * Who called is named by the key's id; the account a key belongs to will be `toolrun.account.id`
 * beside it.
 */
export const TOOLRUN_KEY_ID = "toolrun.key.id";
export const TOOLRUN_CREDITS = "toolrun.credits";
export const TOOLRUN_OUTCOME = "toolrun.call.outcome";
/** The problem code a refused or failed call was answered with. */
export const TOOLRUN_PROBLEM_CODE = "toolrun.problem.code";
export const TOOLRUN_REQUEST_ID = "toolrun.request.id";
