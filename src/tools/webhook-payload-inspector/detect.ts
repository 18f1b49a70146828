/**
 * Reads the provider table against one request: which provider sent it, its event type, and which
 * headers are signals worth explaining. Header evidence beats body shape: rules that name headers
 * are tried first (in table order), then the rules that look at the body alone.
 */

import { type JsonRef, lookup, scalarText } from "./body/tree.ts";
import type { Header } from "./parse.ts";
import type {
  BodyCondition,
  DetectRule,
  Provider,
  SignalSpec,
  TimeUnit,
} from "./providers/provider-types.ts";
import { PROVIDERS } from "./providers/providers.ts";
import { httpDate, parseEpoch, parseIsoDateTime } from "./timestamps.ts";

/** Header values by lower-cased name, in the order given. */
export type HeaderIndex = ReadonlyMap<string, readonly string[]>;

export function indexHeaders(headers: readonly Header[]): HeaderIndex {
  const index = new Map<string, string[]>();
  for (const header of headers) {
    const key = header.name.toLowerCase();
    const values = index.get(key);
    if (values === undefined) index.set(key, [header.value]);
    else values.push(header.value);
  }
  return index;
}

export function firstHeader(index: HeaderIndex, name: string): string | null {
  return index.get(name.toLowerCase())?.[0] ?? null;
}

function conditionHolds(root: JsonRef | null, condition: BodyCondition): boolean {
  const node = lookup(root, condition.path);
  if (node === null) return false;
  if ("exists" in condition) return true;
  const text = scalarText(node);
  if (text === null) return false;
  if ("equals" in condition) return text === condition.equals;
  if ("oneOf" in condition) return condition.oneOf.includes(text);
  const prefixes = typeof condition.startsWith === "string" ? [condition.startsWith] : condition.startsWith;
  return prefixes.some((prefix) => text.startsWith(prefix));
}

function ruleHolds(rule: DetectRule, headers: HeaderIndex, root: JsonRef | null): boolean {
  if (rule.anyHeader !== undefined && !rule.anyHeader.some((name) => headers.has(name.toLowerCase())))
    return false;
  if (rule.allHeaders !== undefined && !rule.allHeaders.every((name) => headers.has(name.toLowerCase())))
    return false;
  if (rule.userAgent !== undefined) {
    const agent = firstHeader(headers, "User-Agent");
    if (agent === null || !agent.toLowerCase().startsWith(rule.userAgent.toLowerCase())) return false;
  }
  return (rule.body ?? []).every((condition) => conditionHolds(root, condition));
}

function namesHeaders(rule: DetectRule): boolean {
  return rule.anyHeader !== undefined || rule.allHeaders !== undefined || rule.userAgent !== undefined;
}

export function detectProvider(
  headers: HeaderIndex,
  root: JsonRef | null,
  providers = PROVIDERS,
): Provider | null {
  for (const byHeaders of [true, false]) {
    for (const provider of providers) {
      const rules = provider.detect.filter((rule) => namesHeaders(rule) === byHeaders);
      if (rules.some((rule) => ruleHolds(rule, headers, root))) return provider;
    }
  }
  return null;
}

/** Headers that look like an event name when the sender is not recognised: `X-Foo-Event`, `X-Foo-Topic`. */
const GENERIC_EVENT = /^x-[a-z0-9-]+-(event|event-type|event-name|event-key|topic)$/;

export function eventType(
  provider: Provider | null,
  headers: HeaderIndex,
  root: JsonRef | null,
): string | null {
  if (provider === null) {
    for (const [name, values] of headers) {
      if (GENERIC_EVENT.test(name) && values[0] !== undefined && values[0] !== "") return values[0];
    }
    return null;
  }
  for (const source of provider.event ?? []) {
    const value =
      "header" in source ? firstHeader(headers, source.header) : scalarText(lookup(root, source.body));
    if (value !== null && value !== "") return value;
  }
  return null;
}

export interface SignalRow {
  readonly header: string;
  readonly value: string;
  readonly meaning: string;
}

/** Explanations for headers any sender may use, tried after the detected provider's own list. */
const GENERIC_SIGNALS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^idempotency-key$/, "Idempotency key: the same on every retry of this delivery"],
  [/^authorization$/, "Credentials sent with the request; senders that do not sign often rely on them"],
  [/signature|hmac/, "Signature header (the scheme was not recognised)"],
  [GENERIC_EVENT, "Event name (the sender was not recognised)"],
  [
    /^x-[a-z0-9-]+-(delivery|delivery-id|webhook-id|event-id|message-id)$/,
    "Delivery or event id (the sender was not recognised)",
  ],
  [/^x-[a-z0-9-]+-timestamp$/, "Timestamp header (the sender was not recognised)"],
];

/** Shared header families explained for any provider (GitLab's signing token, Clerk's Svix headers). */
const FAMILY_SIGNALS: readonly SignalSpec[] = PROVIDERS.filter(
  (p) => p.id === "standard-webhooks" || p.id === "svix",
).flatMap((p) => p.signals);

function withTime(meaning: string, value: string, unit: TimeUnit | undefined): string {
  if (unit === undefined) return meaning;
  const instant = readTime(value, unit);
  return instant === null ? meaning : `${meaning}: ${httpDate(instant)}`;
}

/** Reads a header time as whole epoch seconds, or null when it is not one. */
export function readTime(value: string, unit: TimeUnit): number | null {
  const text = value.trim();
  if (unit === "iso") return parseIsoDateTime(text)?.unix ?? null;
  if (!/^\d{1,16}(\.\d{1,9})?$/.test(text)) return null;
  if (unit === "epoch") return parseEpoch(text)?.unix ?? null;
  const number = Number(text);
  return Math.floor(unit === "ms" ? number / 1000 : number);
}

export function buildSignals(provider: Provider | null, headers: readonly Header[]): SignalRow[] {
  const known = new Map<string, SignalSpec>();
  for (const spec of [...(provider?.signals ?? []), ...FAMILY_SIGNALS]) {
    const key = spec[0].toLowerCase();
    if (!known.has(key)) known.set(key, spec);
  }
  const agentPrefix = provider?.detect.find((rule) => rule.userAgent !== undefined)?.userAgent;
  const rows: SignalRow[] = [];
  for (const header of headers) {
    const name = header.name.toLowerCase();
    const spec = known.get(name);
    if (spec !== undefined) {
      rows.push({
        header: header.name,
        value: header.value,
        meaning: withTime(spec[1], header.value, spec[2]),
      });
      continue;
    }
    if (
      name === "user-agent" &&
      provider !== null &&
      agentPrefix !== undefined &&
      header.value.toLowerCase().startsWith(agentPrefix.toLowerCase())
    ) {
      rows.push({
        header: header.name,
        value: header.value,
        meaning: `User agent of ${provider.name}'s webhook sender`,
      });
      continue;
    }
    const generic = GENERIC_SIGNALS.find(([pattern]) => pattern.test(name));
    if (generic !== undefined) rows.push({ header: header.name, value: header.value, meaning: generic[1] });
  }
  return rows;
}
