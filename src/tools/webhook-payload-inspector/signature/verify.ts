/**
 * Checks the detected provider's signature with the caller's secret and explains the outcome.
 * Statuses: `valid`; `invalid` (no match, a stale timestamp, a malformed signature, a secret that
 * cannot be the scheme's key); `unverifiable` (no signature in the request, a scheme that needs
 * what was not pasted, an unknown sender whose signature header does not name its scheme, a check
 * that reached its budget); `not_requested` (no secret given). Tolerances are measured against
 * `now`; the caller sets the budget (index.ts: a time budget from the start of the check).
 */
import type { Provider } from "../providers/provider-types.ts";
import type { CheckBudget } from "./budget.ts";
import { checkScheme, type Verification } from "./check-scheme.ts";
import { verifyUnknownSender } from "./generic-signature.ts";
import {
  describeSource,
  presentSignatures,
  type Selected,
  type SignedRequest,
  signatureHeader,
} from "./signed-content.ts";

export type { Verification, VerificationStatus } from "./check-scheme.ts";

function selectScheme(provider: Provider, request: SignedRequest): Selected | null {
  for (const scheme of provider.schemes) {
    const present = presentSignatures(scheme, request);
    if (present.length > 0) return { scheme, present };
  }
  return null;
}

export function verifySignature(
  provider: Provider | null,
  secret: string | undefined,
  request: SignedRequest,
  nowMs: number,
  budget: CheckBudget,
): Verification {
  if (provider === null) return verifyUnknownSender(secret, request, nowMs, budget);
  const selected = selectScheme(provider, request);
  const header = signatureHeader(selected);
  const expected = [
    ...new Set(provider.schemes.flatMap((scheme) => scheme.signature.map(describeSource))),
  ].join(" or ");
  if (secret === undefined || secret === "") {
    const scheme = selected?.scheme ?? provider.schemes[0] ?? null;
    let reason: string;
    if (scheme === null)
      reason = `No secret was given. ${provider.unsigned ?? `${provider.name} does not sign its webhooks.`}`;
    else if (selected === null)
      reason = `No secret was given, and the request has no ${provider.name} signature (${expected}).`;
    else
      reason = `No secret was given; send \`secret\` to check ${provider.name}'s signature (${scheme.label}).`;
    return { scheme: scheme?.id ?? null, header, status: "not_requested", reason };
  }
  if (provider.schemes.length === 0) {
    return {
      scheme: null,
      header: null,
      status: "unverifiable",
      reason: provider.unsigned ?? `${provider.name} does not sign its webhooks.`,
    };
  }
  if (selected === null) {
    return {
      scheme: provider.schemes[0]?.id ?? null,
      header: null,
      status: "unverifiable",
      reason: `The request has no ${provider.name} signature (${expected}), so there is nothing to check.`,
    };
  }
  const outcome = checkScheme(
    provider.name,
    selected.scheme,
    selected.present,
    secret,
    request,
    nowMs,
    budget,
  );
  const shape = "secretShape" in selected.scheme ? selected.scheme.secretShape : undefined;
  const secretWarning =
    shape !== undefined && !secret.trim().startsWith(shape.prefix)
      ? `${shape.what} start with \`${shape.prefix}\`; this secret does not: it may be another value (an API key, another endpoint's secret) pasted by mistake.`
      : undefined;
  return {
    scheme: selected.scheme.id,
    header,
    ...outcome,
    ...(secretWarning !== undefined && { secretWarning }),
  };
}
