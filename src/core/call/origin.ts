/**
 * Who made a call and how (the credential, its OAuth client, the transport, MCP's client), as the
 * ledger records it on the call's row. A transport builds it from the key it authenticated and
 * what it knows of its client; no request body is part of it.
 */
import type { CallOrigin, CallTransport } from "../../ports/call-log.ts";
import type { ApiKeyRecord } from "../../ports/store.ts";

/** What an MCP client said of itself (clientInfo). */
export interface ClientInfo {
  readonly name?: string | undefined;
  readonly version?: string | undefined;
}

/** Longest clientInfo value kept: it is the client's own text, not ours to store whole. */
const MAX_CLIENT_TEXT = 200;

function clientText(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value.slice(0, MAX_CLIENT_TEXT) : null;
}

export function callOrigin(key: ApiKeyRecord, transport: CallTransport, client?: ClientInfo): CallOrigin {
  return {
    credential: key.via?.authorizationId ?? "key",
    oauthClientId: key.via?.clientId ?? null,
    transport,
    clientName: clientText(client?.name),
    clientVersion: clientText(client?.version),
  };
}
