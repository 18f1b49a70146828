/**
 * An OAuth client written with oauth4webapi, a second implementation independent of the MCP
 * SDKs and of the server's library: it validates every metadata document and response it reads
 * against the RFCs. The flow and attack tests start from its steps; every request it makes is
 * recorded (secrets elided) beside the person's.
 */
import * as oauth from "oauth4webapi";
import { type Exchange, elide, Person } from "./helpers.ts";

export const REDIRECT_URI = "http://127.0.0.1:9/callback";

export interface Signed {
  readonly client: oauth.Client;
  readonly tokens: oauth.TokenEndpointResponse;
  /** The raw token response, for its headers. */
  readonly response: Response;
}

export class IndependentClient {
  readonly issuer: URL;
  readonly resource: string;
  readonly log: Exchange[];
  as!: oauth.AuthorizationServer;

  constructor(issuer: string, resource: string, log: Exchange[] = []) {
    this.issuer = new URL(issuer);
    this.resource = resource;
    this.log = log;
  }

  /** Options every request takes: plain http is allowed (a loopback issuer), and each is recorded. */
  get options() {
    const log = this.log;
    return {
      [oauth.allowInsecureRequests]: true,
      [oauth.customFetch]: async (url: string, init: RequestInit): Promise<Response> => {
        const response = await fetch(url, init);
        const body =
          typeof init.body === "string"
            ? init.body
            : init.body instanceof URLSearchParams
              ? init.body.toString()
              : "";
        const path = new URL(url).pathname + new URL(url).search;
        log.push({
          request: `${init.method ?? "GET"} ${elide(path)}${body ? ` (${elide(body).slice(0, 200)})` : ""}`,
          status: response.status,
        });
        return response;
      },
    } as const;
  }

  async discover(): Promise<oauth.AuthorizationServer> {
    const response = await oauth.discoveryRequest(this.issuer, { ...this.options, algorithm: "oauth2" });
    this.as = await oauth.processDiscoveryResponse(this.issuer, response);
    return this.as;
  }

  async register(metadata: Partial<oauth.Client> = {}): Promise<oauth.Client> {
    const response = await oauth.dynamicClientRegistrationRequest(
      this.as,
      {
        client_name: "oauth4webapi test client",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        ...metadata,
      },
      this.options,
    );
    return oauth.processDynamicClientRegistrationResponse(response);
  }

  /** An authorization URL with a fresh PKCE pair and state. */
  async authorizationUrl(client: oauth.Client, extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(this.as.authorization_endpoint ?? "");
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      scope: "mcp",
      resource: this.resource,
      ...extra,
    }).toString();
    return { url, verifier, state };
  }

  /** The code exchange, unchecked: the raw answer. */
  exchange(
    client: oauth.Client,
    callback: URLSearchParams,
    verifier: string,
    redirectUri = REDIRECT_URI,
    dpop?: oauth.DPoPHandle,
  ) {
    return oauth.authorizationCodeGrantRequest(
      this.as,
      client,
      oauth.None(),
      callback,
      redirectUri,
      verifier,
      {
        ...this.options,
        additionalParameters: { resource: this.resource },
        ...(dpop && { DPoP: dpop }),
      },
    );
  }

  refresh(client: oauth.Client, refreshToken: string, resource = this.resource) {
    return oauth.refreshTokenGrantRequest(this.as, client, oauth.None(), refreshToken, {
      ...this.options,
      additionalParameters: { resource },
    });
  }

  /**
   * Discovery, registration, a person approving with `key` (the tool boxes labelled in `uncheck`
   * unchecked), the code exchange: a signed-in client.
   */
  async signIn(person: Person, key: string, uncheck: readonly string[] = []): Promise<Signed> {
    if (this.as === undefined) await this.discover();
    const client = await this.register();
    const { url, verifier, state } = await this.authorizationUrl(client);
    const redirect = await person.consent(url, key, "Approve", uncheck);
    const callback = oauth.validateAuthResponse(this.as, client, redirect, state);
    const response = await this.exchange(client, callback, verifier);
    const tokens = await oauth.processAuthorizationCodeResponse(this.as, client, response.clone());
    return { client, tokens, response };
  }
}

export { oauth, Person };
