/**
 * The provider table checked as data: every entry is well-formed, reachable (no earlier entry
 * shadows it), and every HMAC or hash scheme in it verifies a request signed by an independent
 * signer written here from the entry's own description, and rejects a tampered copy.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHash, createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { NOW, rawRequest, row, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";
import { headerName } from "../parse.ts";
import type {
  BodyCondition,
  DetectRule,
  DigestScheme,
  HmacScheme,
  Provider,
  TimeUnit,
  ValueSource,
} from "./provider-types.ts";
import { PROVIDERS } from "./providers.ts";

type Json = null | string | number | boolean | Json[] | { [key: string]: Json };

/** Sets `path` (`a.b[0].c`) in `root`, creating objects and arrays on the way. */
function setPath(root: { value: Json }, path: string, value: Json): void {
  const segments = path
    .split(/\.|(?=\[)/)
    .map((part) => (/^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part));
  let holder: { [key: string]: Json } | Json[] = root as unknown as { [key: string]: Json };
  let key: string | number = "value";
  for (const segment of segments) {
    const current: Json | undefined = (holder as Record<string | number, Json>)[key];
    const next: Json =
      current !== undefined && current !== null && typeof current === "object"
        ? current
        : typeof segment === "number"
          ? []
          : {};
    (holder as Record<string | number, Json>)[key] = next;
    holder = next as { [key: string]: Json } | Json[];
    key = segment;
  }
  (holder as Record<string | number, Json>)[key] = value;
}

function satisfying(condition: BodyCondition): string {
  if ("equals" in condition) return condition.equals;
  if ("oneOf" in condition) return condition.oneOf[0] ?? "";
  if ("startsWith" in condition)
    return `${typeof condition.startsWith === "string" ? condition.startsWith : condition.startsWith[0]}x`;
  return "x";
}

function timeText(unit: TimeUnit): string {
  if (unit === "ms") return String(NOW);
  if (unit === "iso") return new Date(NOW).toISOString();
  return String(Math.floor(NOW / 1000));
}

interface Built {
  head: string[];
  body: { value: Json };
}

/** A request that satisfies `rule`: its headers with placeholder values and a body meeting its conditions. */
function fromRule(rule: DetectRule): Built {
  const head = ["POST /in HTTP/1.1", "Host: hooks.example.com"];
  const first = rule.anyHeader?.[0];
  if (first !== undefined) head.push(`${first}: placeholder`);
  for (const name of rule.allHeaders ?? []) head.push(`${name}: placeholder`);
  if (rule.userAgent !== undefined) head.push(`User-Agent: ${rule.userAgent}1.0`);
  const body: { value: Json } = { value: null };
  for (const condition of rule.body ?? []) setPath(body, condition.path, satisfying(condition));
  return { head, body };
}

describe("the provider table", () => {
  test("has at least 40 providers with unique ids", () => {
    assert.ok(PROVIDERS.length >= 40, `${PROVIDERS.length} providers`);
    assert.equal(new Set(PROVIDERS.map((p) => p.id)).size, PROVIDERS.length);
  });

  test("every header name is a valid token and every entry can be recognised", () => {
    for (const provider of PROVIDERS) {
      assert.ok(provider.detect.length > 0, provider.id);
      const names = [
        ...provider.signals.map((s) => s[0]),
        ...provider.detect.flatMap((r) => [...(r.anyHeader ?? []), ...(r.allHeaders ?? [])]),
        ...provider.schemes.flatMap((s) =>
          s.signature.flatMap((source) => ("header" in source ? [source.header] : [])),
        ),
      ];
      for (const name of names) assert.equal(headerName(`${name}: x`), name, `${provider.id}: ${name}`);
      assert.ok(
        provider.schemes.length > 0 || provider.unsigned !== undefined,
        `${provider.id} says how it signs, or that it does not`,
      );
    }
  });

  test("every signature header is also explained as a signal", () => {
    for (const provider of PROVIDERS) {
      const explained = new Set(provider.signals.map((s) => s[0].toLowerCase()));
      for (const scheme of provider.schemes) {
        for (const source of scheme.signature) {
          if ("header" in source)
            assert.ok(explained.has(source.header.toLowerCase()), `${provider.id}: ${source.header}`);
        }
      }
    }
  });

  test("a scheme id always means the same scheme", () => {
    const seen = new Map<string, string>();
    for (const scheme of PROVIDERS.flatMap((p) => p.schemes)) {
      const text = JSON.stringify(scheme);
      assert.equal(seen.get(scheme.id) ?? text, text, scheme.id);
      seen.set(scheme.id, text);
    }
  });

  for (const provider of PROVIDERS) {
    test(`${provider.name} is recognised from each of its rules`, () => {
      for (const rule of provider.detect) {
        const { head, body } = fromRule(rule);
        const text = rule.body === undefined ? "" : JSON.stringify(body.value);
        const out = run(rawRequest(head, text));
        assert.equal(out.values.providerId, provider.id, `rule ${JSON.stringify(rule)}`);
        assert.equal(row(out, "Provider"), provider.name);
      }
    });
  }
});

const HMAC_SECRET = "provider-table-secret";
const WHSEC = `whsec_${Buffer.from("twenty-four-byte-key-ok!").toString("base64")}`;

/** Signs a request for `scheme` the way its description says, independently of ../signature/verify.ts. */
function signFor(
  provider: Provider,
  scheme: HmacScheme | DigestScheme,
): { payload: string; secret: string; signsBody: boolean } {
  const rule =
    provider.detect.find((r) => r.anyHeader !== undefined && r.body === undefined) ?? provider.detect[0];
  const built = fromRule(rule ?? {});
  const headerValues = new Map<string, string>();
  const pairValues = new Map<string, string>();
  const timestamp = scheme.kind === "hmac" ? scheme.timestamp : undefined;
  const valueFor = (source: ValueSource): string => {
    const isTime = timestamp !== undefined && JSON.stringify(timestamp.from) === JSON.stringify(source);
    const value = isTime ? timeText(timestamp.unit === "epoch" ? "s" : timestamp.unit) : "id-0001";
    if ("header" in source) headerValues.set(source.header, value);
    if ("pair" in source) pairValues.set(source.pair, value);
    if ("body" in source) setPath(built.body, source.body, value);
    return value;
  };
  for (const part of scheme.content) if (typeof part === "object" && "from" in part) valueFor(part.from);
  if (timestamp !== undefined) valueFor(timestamp.from);
  if (scheme.when !== undefined) headerValues.set(scheme.when.header, scheme.when.equals);
  const body = built.body.value === null ? '{"id":"evt_0001"}' : JSON.stringify(built.body.value);
  const message = scheme.content
    .map((part) => {
      if (part === "body") return body;
      if (part === "url") return "https://hooks.example.com/in";
      if (part === "method") return "POST";
      if (part === "secret") return HMAC_SECRET;
      if (part === "sorted-params") return "";
      if ("text" in part) return part.text;
      return valueFor(part.from);
    })
    .join("");
  const secret = scheme.kind === "hmac" && scheme.secret === "whsec" ? WHSEC : HMAC_SECRET;
  const key = secret === WHSEC ? Buffer.from(WHSEC.slice(6), "base64") : Buffer.from(secret);
  const mac =
    scheme.kind === "hmac"
      ? createHmac(scheme.algorithm, key).update(message).digest()
      : createHash(scheme.algorithm).update(message).digest();
  const digest = mac.toString(scheme.encoding);
  const format = scheme.kind === "hmac" ? scheme.format : ({ type: "plain" } as const);
  let signature = digest;
  if (format.type === "plain") signature = `${format.prefix ?? ""}${digest}`;
  if (format.type === "list") signature = `${format.version},${digest}`;
  if (format.type === "pairs")
    signature = [...[...pairValues].map(([k, v]) => `${k}=${v}`), `${format.key}=${digest}`].join(
      format.separator,
    );
  const first = scheme.signature[0];
  if (first !== undefined && "header" in first) headerValues.set(first.header, signature);
  if (first !== undefined && "body" in first)
    throw new Error("body-carried signatures are tested in verify.test.ts");
  // Real values replace the placeholders the detection rule put in.
  // Placeholders for other schemes' signature headers go too, or those schemes would be picked.
  const signatureHeaders = provider.schemes.flatMap((other) =>
    other.signature.flatMap((source) => ("header" in source ? [source.header] : [])),
  );
  const names = new Set([...headerValues.keys(), ...signatureHeaders].map((name) => name.toLowerCase()));
  const head = built.head.filter((line) => !names.has(line.slice(0, line.indexOf(":")).toLowerCase()));
  for (const [name, value] of headerValues) head.push(`${name}: ${value}`);
  return { payload: rawRequest(head, body), secret, signsBody: scheme.content.includes("body") };
}

describe("every HMAC and hash scheme in the table", () => {
  for (const provider of PROVIDERS) {
    for (const scheme of provider.schemes) {
      if (scheme.kind !== "hmac" && scheme.kind !== "digest") continue;
      if (scheme.signature.some((source) => !("header" in source))) continue;
      if (scheme.content.includes("sorted-params")) continue;
      test(`${provider.name}: ${scheme.id}`, () => {
        const { payload, secret, signsBody } = signFor(provider, scheme);
        const out = run(payload, secret);
        assert.equal(out.values.providerId, provider.id);
        assert.equal(out.verification.scheme, scheme.id);
        assert.equal(out.verification.status, "valid", out.verification.reason);
        if (signsBody) {
          const tampered = run(`${payload} `, secret);
          assert.equal(tampered.verification.status, "invalid", `tampered: ${tampered.verification.reason}`);
        }
        const wrong =
          secret === WHSEC
            ? `whsec_${Buffer.from("another-24-byte-key-here").toString("base64")}`
            : `${secret}x`;
        assert.equal(run(payload, wrong).verification.status, "invalid");
      });
    }
  }
});
