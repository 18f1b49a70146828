/**
 * Rebuilds what a provider signed, from the parts listed in its scheme (./provider-types.ts):
 * header values, items of the signature header, body fields, the raw body bytes, the request URL
 * and sorted form fields. Also splits a signature header into its digests. No cryptography here.
 */
import { Buffer } from "node:buffer";
import type { FormField } from "../body/form.ts";
import { type JsonRef, lookup, scalarText } from "../body/tree.ts";
import type { HeaderIndex } from "../detect.ts";
import { firstHeader } from "../detect.ts";
import type { RequestLine } from "../parse.ts";
import type { ContentPart, DigestFormat, SignatureScheme, ValueSource } from "../providers/provider-types.ts";

export interface SignedRequest {
  readonly headers: HeaderIndex;
  readonly requestLine: RequestLine | null;
  readonly body: string;
  readonly root: JsonRef | null;
  readonly formFields: readonly FormField[] | null;
}

export interface Present {
  readonly source: ValueSource;
  readonly value: string;
}

/** A scheme and the signature values for it that the request carries. */
export interface Selected {
  readonly scheme: SignatureScheme;
  readonly present: Present[];
}

/** The signature values of `scheme` that the request carries (none when its `when` rule fails). */
export function presentSignatures(scheme: SignatureScheme, request: SignedRequest): Present[] {
  if (scheme.when !== undefined) {
    const value = firstHeader(request.headers, scheme.when.header);
    if (value === null || value.trim().toLowerCase() !== scheme.when.equals.toLowerCase()) return [];
  }
  const present: Present[] = [];
  for (const source of scheme.signature) {
    const value = resolveSource(source, request, null);
    if (value !== null && value.trim() !== "") present.push({ source, value });
  }
  return present;
}

export function signatureHeader(selected: Selected | null): string | null {
  return selected === null ? null : describeSource(selected.present[0]?.source ?? { header: "" });
}

/** The `k=v` items of a signature header such as Stripe's `t=…,v1=…`. */
export type Pairs = ReadonlyMap<string, readonly string[]>;

export function resolveSource(
  source: ValueSource,
  request: SignedRequest,
  pairs: Pairs | null,
): string | null {
  if ("header" in source) return firstHeader(request.headers, source.header);
  if ("pair" in source) return pairs?.get(source.pair)?.[0] ?? null;
  if ("body" in source) return scalarText(lookup(request.root, source.body));
  return request.formFields?.findLast((field) => field.name === source.formField)?.value ?? null;
}

export function describeSource(source: ValueSource): string {
  if ("header" in source) return source.header;
  if ("pair" in source) return `\`${source.pair}=\` item`;
  if ("body" in source) return `body field \`${source.body}\``;
  return `form field \`${source.formField}\``;
}

/** The signature header's digests, and its `k=v` items when it has them. */
export function parseDigests(format: DigestFormat, value: string): { digests: string[]; pairs: Pairs } {
  const text = value.trim();
  if (format.type === "plain") {
    const prefix = format.prefix ?? "";
    const ok = text.toLowerCase().startsWith(prefix.toLowerCase());
    return { digests: ok ? [text.slice(prefix.length)] : [], pairs: new Map() };
  }
  if (format.type === "list") {
    const digests: string[] = [];
    for (const item of text.split(/\s+/)) {
      const comma = item.indexOf(",");
      if (comma > 0 && item.slice(0, comma) === format.version) digests.push(item.slice(comma + 1));
    }
    return { digests, pairs: new Map() };
  }
  const pairs = new Map<string, string[]>();
  for (const item of text.split(format.separator)) {
    const equals = item.indexOf("=");
    if (equals <= 0) continue;
    const key = item.slice(0, equals).trim();
    const list = pairs.get(key) ?? [];
    list.push(item.slice(equals + 1).trim());
    pairs.set(key, list);
  }
  return { digests: [...(pairs.get(format.key) ?? [])], pairs };
}

/**
 * The URLs the sender may have signed: an absolute request target as is; otherwise `https://` and
 * then `http://` with the Host header and the target. Empty without a request line or Host.
 */
export function urlCandidates(request: SignedRequest): string[] {
  const target = request.requestLine?.target;
  if (target === undefined) return [];
  if (/^https?:\/\//i.test(target)) return [target];
  const host = firstHeader(request.headers, "Host");
  if (host === null || host === "") return [];
  return [`https://${host}${target}`, `http://${host}${target}`];
}

function sortedParams(request: SignedRequest): string {
  const fields = [...(request.formFields ?? [])];
  fields.sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
  );
  return fields.map((field) => field.name + field.value).join("");
}

export type BuiltMessages =
  | { readonly ok: true; readonly messages: Buffer[] }
  | { readonly ok: false; readonly reason: string };

/** Every message the sender may have signed (one per URL candidate when the URL is signed). */
export function buildMessages(
  parts: readonly ContentPart[],
  request: SignedRequest,
  secret: string,
  pairs: Pairs | null,
  body: string,
): BuiltMessages {
  const urls = parts.includes("url") ? urlCandidates(request) : [""];
  if (urls.length === 0) {
    return {
      ok: false,
      reason:
        "This scheme signs the full request URL: include the request line (with an absolute URL, or a path and a Host header) to verify it.",
    };
  }
  const messages: Buffer[] = [];
  for (const url of urls) {
    const pieces: string[] = [];
    for (const part of parts) {
      if (part === "body") pieces.push(body);
      else if (part === "url") pieces.push(url);
      else if (part === "secret") pieces.push(secret);
      else if (part === "sorted-params") pieces.push(sortedParams(request));
      else if (part === "method") {
        const method = request.requestLine?.method;
        if (method === undefined)
          return {
            ok: false,
            reason: "This scheme signs the HTTP method: include the request line to verify it.",
          };
        pieces.push(method);
      } else if ("text" in part) pieces.push(part.text);
      else {
        const value = resolveSource(part.from, request, pairs);
        if (value === null)
          return {
            ok: false,
            reason: `The signed message includes the ${describeSource(part.from)}, which the request lacks.`,
          };
        pieces.push(value);
      }
    }
    messages.push(Buffer.from(pieces.join(""), "utf8"));
  }
  return { ok: true, messages };
}

/** The body without one final line break, when it has one: pasting often adds a line break the sender never signed. */
export function withoutFinalLineBreak(body: string): string | null {
  if (body.endsWith("\r\n")) return body.slice(0, -2);
  if (body.endsWith("\n")) return body.slice(0, -1);
  return null;
}
