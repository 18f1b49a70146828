/**
 * Signature headers that name their scheme whatever the sender: `X-Hub-Signature-256: sha256=...`
 * means an HMAC-SHA256 of the raw body, hex, for GitHub, Gitea, Forgejo, Meta's platforms,
 * Bitbucket Server and many others. A request from a sender the table does not know is checked
 * against such a header's scheme, so a mismatch is `invalid` rather than a shrug. Headers such as
 * `X-Signature` mean different things to different senders and are not listed here.
 */
import { bodyHmac } from "./provider-kit.ts";
import type { HmacScheme } from "./provider-types.ts";

export interface HeaderScheme {
  readonly scheme: HmacScheme;
  /** Whether the value must start with the scheme's prefix for the header to name this scheme. */
  readonly byPrefix: boolean;
  readonly usedBy: string;
}

const HUB_USERS = "GitHub, Gitea, Forgejo, Meta's platforms and many others";

export const HEADER_SCHEMES: readonly HeaderScheme[] = [
  {
    scheme: bodyHmac("hub-signature-256", "X-Hub-Signature-256", "sha256", "hex", "sha256="),
    byPrefix: false,
    usedBy: HUB_USERS,
  },
  {
    scheme: bodyHmac("hub-signature-sha256", "X-Hub-Signature", "sha256", "hex", "sha256="),
    byPrefix: true,
    usedBy: "Bitbucket Server and Data Center, and others",
  },
  {
    scheme: bodyHmac("hub-signature-sha1", "X-Hub-Signature", "sha1", "hex", "sha1="),
    byPrefix: true,
    usedBy: `the legacy header of ${HUB_USERS}`,
  },
];
