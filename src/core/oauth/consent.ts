/**
 * The consent step of an OAuth sign-in as the console's consent page drives it: what the page
 * shows of the pending sign-in, and the two ways out of it. Implemented by the OAuth glue
 * (http/oauth/consent.ts) over the authorization server library; the page never sees the library.
 * `Req` and `Res` are the browser's request and its answer as the transport holds them (the
 * library reads and sets its cookies there); the core never looks inside.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";

/** A sign-in waiting for the person's decision. */
export interface PendingConsent {
  readonly uid: string;
  readonly clientId: string;
  /** The name the client gave (to show as text), or its id when it gave none. */
  readonly clientName: string;
  /** Where the browser is sent back to: the redirect URI's host, or its scheme for an app. */
  readonly redirectTarget: string;
  /** The Content-Security-Policy source that lets the consent form lead there (an origin or a scheme). */
  readonly redirectSource: string;
}

export interface ConsentFlow<Req, Res> {
  /** Whether the consent page is served over https (its cookies are then Secure). */
  readonly secure: boolean;
  /** The sign-in `uid` this browser is in (its interaction cookie names it); null when none or expired. */
  pending(req: Req, res: Res, uid: string): Promise<PendingConsent | null>;
  /**
   * Approves the sign-in as `key`, binding the authorization to the secret the person typed
   * (`keySecretHash`) and narrowing it to `tools` (null: every tool the key may use); returns
   * where the browser goes next, or null when the sign-in is no longer waiting (it expired, or
   * was answered in another tab).
   */
  approve(
    req: Req,
    res: Res,
    uid: string,
    key: ApiKeyRecord,
    keySecretHash: string,
    tools: readonly string[] | null,
  ): Promise<string | null>;
  /** Denies it (`access_denied` back to the client); where the browser goes next, or null as above. */
  deny(req: Req, res: Res, uid: string): Promise<string | null>;
  /** The key that signs consent forms' CSRF tokens, the same on every instance. */
  csrfKey(): Promise<Buffer>;
}
