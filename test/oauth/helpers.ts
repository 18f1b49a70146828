/**
 * OAuth test plumbing: the real app with OAuth on, listening on a loopback port that is also its
 * issuer; a person in a browser, reduced to what the flow needs (a cookie jar, following
 * redirects, reading the consent form by its labels and submitting it); and an MCP client's
 * OAuth side (the SDKs' OAuthClientProvider) kept in memory, which hands the authorization URL to
 * that person instead of opening a browser.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { type OAuthSettings, oauthSettings } from "../../src/core/oauth/settings.ts";
import { createTestApp, type TestApp, type TestAppOptions, type TestLifetime } from "../helpers/app.ts";

export interface OAuthApp extends TestApp {
  /** `http://127.0.0.1:<port>`: the issuer. */
  readonly base: string;
  readonly mcp: string;
  readonly settings: OAuthSettings;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export async function startOAuthApp(
  options: TestAppOptions,
  lifetime: TestLifetime,
  oauth: Parameters<typeof oauthSettings>[1] & { issuer?: string } = {},
): Promise<OAuthApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Instances behind one public URL share the issuer; each still listens on its own port.
  const settings = oauthSettings(oauth.issuer ?? base, oauth);
  const t = await createTestApp(
    { ...options, appOptions: { ...options.appOptions, oauth: settings } },
    lifetime,
  );
  await t.app.listen({ port, host: "127.0.0.1" });
  return { ...t, base, mcp: `${base}/mcp`, settings };
}

/** One request as the flow records it, with secrets elided: the sequence a report can show. */
export interface Exchange {
  readonly request: string;
  readonly status: number;
  readonly location?: string;
}

interface Cookie {
  readonly value: string;
  readonly path: string;
}

/** Elides codes, tokens, verifiers, keys and cookie values from a URL or body for the record. */
export function elide(text: string): string {
  return text.replace(
    /((?:code|code_verifier|code_challenge|access_token|refresh_token|token|csrf|api_key|state|client_secret)=)[^&\s]+/g,
    "$1…",
  );
}

/**
 * A person at a browser: keeps cookies per path, follows redirects within the server's origin,
 * and fills the consent form by its labels. Stops at a redirect that leaves the server (to the
 * client's redirect URI), which is where the client takes over.
 */
export class Person {
  readonly origin: string;
  readonly log: Exchange[];
  private readonly cookies = new Map<string, Cookie>();

  constructor(origin: string, log: Exchange[] = []) {
    this.origin = origin;
    this.log = log;
  }

  /** A cookie this browser got elsewhere (a member's session made by the test). */
  setCookie(name: string, value: string, path = "/"): void {
    this.cookies.set(name, { value, path });
  }

  private cookieHeader(url: URL): string {
    return [...this.cookies]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join("; ");
  }

  private keep(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute("path") ?? url.pathname;
      const gone = attribute("max-age") === "0" || value === "" || /1970/.test(attribute("expires") ?? "");
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  /** One request, no redirect followed. */
  async request(
    url: string,
    init: {
      method?: string;
      form?: Record<string, string> | URLSearchParams;
      headers?: Record<string, string>;
    } = {},
  ) {
    const target = new URL(url, this.origin);
    const headers: Record<string, string> = { ...init.headers };
    const cookie = this.cookieHeader(target);
    if (cookie !== "") headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(target, { method: init.method ?? "GET", headers, body, redirect: "manual" });
    this.keep(target, response);
    const location = response.headers.get("location") ?? undefined;
    this.log.push({
      request: `${init.method ?? "GET"} ${elide(target.pathname + target.search)}${body ? ` (${elide(body)})` : ""}`,
      status: response.status,
      ...(location && { location: elide(location) }),
    });
    return response;
  }

  /** Follows redirects within the server; returns the last answer, or the URL a redirect left for. */
  async follow(response: Response): Promise<{ page: Response } | { left: URL }> {
    let current = response;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get("location");
      if (current.status < 300 || current.status >= 400 || location === null) return { page: current };
      const next = new URL(location, this.origin);
      if (next.origin !== new URL(this.origin).origin) return { left: next };
      current = await this.request(next.href);
    }
    throw new Error("too many redirects");
  }

  /** Opens the authorization URL and lands on the consent page, returning its HTML. */
  async openConsent(authorizationUrl: string | URL): Promise<{ html: string; url: string }> {
    const landed = await this.follow(await this.request(String(authorizationUrl)));
    assert.ok("page" in landed, `the authorization request left for ${"left" in landed ? landed.left : ""}`);
    const html = await landed.page.text();
    assert.equal(
      landed.page.status,
      200,
      `the consent page answered ${landed.page.status}: ${html.slice(0, 400)}`,
    );
    return { html, url: landed.page.url };
  }

  /**
   * Reads the consent form like a person: the field labelled `API key`, the button named
   * `Approve` or `Deny`; submits it; follows on until the browser leaves for the client.
   */
  async answer(
    html: string,
    key: string,
    decision: "Approve" | "Deny",
    via = this.origin,
    uncheck: readonly string[] = [],
  ): Promise<URL> {
    const landed = await this.follow(await this.submit(html, key, decision, via, uncheck));
    if ("page" in landed) {
      throw new Error(
        `the consent form answered ${landed.page.status}: ${(await landed.page.text()).slice(0, 600)}`,
      );
    }
    return landed.left;
  }

  /**
   * Fills the consent form as a browser sends it (its hidden fields, the key, each checked box but
   * those labelled in `uncheck`) and presses the button; the answer, no redirect followed.
   */
  submit(
    html: string,
    key: string,
    decision: "Approve" | "Deny",
    via = this.origin,
    uncheck: readonly string[] = [],
  ): Promise<Response> {
    const form = readForm(html);
    const fields = new URLSearchParams({ ...form.hidden, [form.fieldLabelled("API key")]: key });
    for (const box of form.checked()) if (!uncheck.includes(box.label)) fields.append(box.name, box.value);
    const button = form.button(decision);
    fields.append(button.name, button.value);
    return this.request(new URL(form.action, via).href, { method: "POST", form: fields });
  }

  /** The whole person's part: open, type the key, press the button; the URL the client receives. */
  async consent(
    authorizationUrl: string | URL,
    key: string,
    decision: "Approve" | "Deny" = "Approve",
    uncheck: readonly string[] = [],
  ): Promise<URL> {
    const { html } = await this.openConsent(authorizationUrl);
    return this.answer(html, key, decision, this.origin, uncheck);
  }
}

/** The consent form as a person reads it: by its labels and button names. */
export function readForm(html: string) {
  const formTag = /<form[^>]*action="([^"]+)"[^>]*>/.exec(html);
  assert.ok(formTag?.[1], "the page has a form");
  const hidden: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[match[1] ?? ""] = match[2] ?? "";
  return {
    action: formTag[1],
    hidden,
    fieldLabelled(label: string): string {
      const id = new RegExp(`<label for="([^"]+)">${label}</label>`).exec(html)?.[1];
      assert.ok(id, `a field labelled "${label}"`);
      const name = new RegExp(`<input id="${id}" name="([^"]+)"`).exec(html)?.[1];
      assert.ok(name, `the field labelled "${label}" has a name`);
      return name;
    },
    /** The checkboxes checked as the page came, with their labels. */
    checked(): { name: string; value: string; label: string }[] {
      return [
        ...html.matchAll(
          /<input type="checkbox" id="([^"]+)" name="([^"]+)" value="([^"]*)" checked> <label for="\1">([^<]*)<\/label>/g,
        ),
      ].map((m) => ({ name: m[2] ?? "", value: m[3] ?? "", label: m[4] ?? "" }));
    },
    button(text: string): { name: string; value: string } {
      const match = new RegExp(
        `<button type="submit" name="([^"]+)" value="([^"]+)"[^>]*>${text}</button>`,
      ).exec(html);
      assert.ok(match?.[1] && match[2], `a button named "${text}"`);
      return { name: match[1], value: match[2] };
    },
  };
}

/** What an MCP SDK's OAuthClientProvider keeps, in memory, for one client and one server. */
export interface ClientState {
  clientInformation?: Record<string, unknown>;
  tokens?: Record<string, unknown> & { access_token: string; refresh_token?: string };
  codeVerifier?: string;
  authorizationUrl?: URL;
  /** SDK v2 keeps where it discovered the server, to check the redirect comes from the same one. */
  discoveryState?: unknown;
}

export const REDIRECT_URL = "http://127.0.0.1:9/oauth/callback";

/**
 * The OAuthClientProvider both SDK versions take (structurally the same interface): a public
 * client registered by RFC 7591, redirecting to a loopback URL the test never listens on (the
 * person stops where the browser would leave for it).
 */
export function memoryProvider(name: string, state: ClientState, redirectUrl = REDIRECT_URL) {
  return {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return {
        client_name: name,
        redirect_uris: [redirectUrl],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    },
    clientInformation: () => state.clientInformation as never,
    saveClientInformation: (info: unknown) => {
      state.clientInformation = info as Record<string, unknown>;
    },
    tokens: () => state.tokens as never,
    saveTokens: (tokens: unknown) => {
      state.tokens = tokens as ClientState["tokens"];
    },
    redirectToAuthorization: (url: URL) => {
      state.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier: string) => {
      state.codeVerifier = verifier;
    },
    codeVerifier: () => {
      if (state.codeVerifier === undefined) throw new Error("no code verifier saved");
      return state.codeVerifier;
    },
    saveDiscoveryState: (discovery: unknown) => {
      state.discoveryState = discovery;
    },
    discoveryState: () => state.discoveryState as never,
  };
}
