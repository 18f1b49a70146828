/**
 * Generates the provider, scheme and signal tables of docs/tools/webhook-payload-inspector.md from
 * the provider table, so the documentation cannot drift from the data. Run it after changing a
 * provider: `npm run docs:inspector`. A test (docs.test.ts)
 * fails when the committed document differs from what this produces.
 */
import type {
  BodyCondition,
  DetectRule,
  EventSource,
  Provider,
  SignatureScheme,
} from "./providers/provider-types.ts";
import { PROVIDERS } from "./providers/providers.ts";
import { HEADER_SCHEMES, type HeaderScheme } from "./providers/scheme-headers.ts";

export const DOC_PATH = "docs/tools/webhook-payload-inspector.md";
const DOC_FILE = new URL("../../../docs/tools/webhook-payload-inspector.md", import.meta.url);

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (text: string) => `\`${text}\``;

function describeCondition(condition: BodyCondition): string {
  const path = code(condition.path);
  if ("exists" in condition) return `${path} present`;
  if ("equals" in condition) return `${path} = ${code(condition.equals)}`;
  if ("oneOf" in condition) return `${path} one of ${condition.oneOf.map(code).join(", ")}`;
  const prefixes = typeof condition.startsWith === "string" ? [condition.startsWith] : condition.startsWith;
  return `${path} starts with ${prefixes.map(code).join(" or ")}`;
}

function describeRule(rule: DetectRule): string {
  const parts: string[] = [];
  if (rule.anyHeader !== undefined) parts.push(`header ${rule.anyHeader.map(code).join(" or ")}`);
  if (rule.allHeaders !== undefined) parts.push(`headers ${rule.allHeaders.map(code).join(" and ")}`);
  if (rule.userAgent !== undefined) parts.push(`User-Agent starting ${code(rule.userAgent)}`);
  for (const condition of rule.body ?? []) parts.push(`body ${describeCondition(condition)}`);
  return parts.join(" + ");
}

function describeEvent(sources: readonly EventSource[] | undefined): string {
  if (sources === undefined || sources.length === 0) return "—";
  return sources
    .map((source) => ("header" in source ? `header ${code(source.header)}` : `body ${code(source.body)}`))
    .join(", then ");
}

function describeSigning(provider: Provider): string {
  if (provider.schemes.length === 0) return `not signed: ${provider.unsigned ?? ""}`;
  return provider.schemes.map((scheme) => code(scheme.id)).join(", ");
}

/** Shown for an entry no public source was checked against: visibly, so nobody relies on it unawares. */
export const UNVERIFIED = "**unverified**";

export function providerTable(providers: readonly Provider[] = PROVIDERS): string {
  const lines = [
    "| # | Provider | Recognised by (any rule) | Event type from | Signature schemes | Checked against |",
    "|---|---|---|---|---|---|",
  ];
  providers.forEach((provider, index) => {
    const checked =
      provider.checkedAgainst === undefined
        ? UNVERIFIED
        : `[${new URL(provider.checkedAgainst).hostname}](${provider.checkedAgainst})`;
    lines.push(
      `| ${index + 1} | ${cell(provider.name)} | ${cell(provider.detect.map(describeRule).join("; or "))} | ${cell(describeEvent(provider.event))} | ${cell(describeSigning(provider))} | ${checked} |`,
    );
  });
  return lines.join("\n");
}

function describeScheme(scheme: SignatureScheme): string {
  const where = scheme.signature
    .map((source) =>
      "header" in source
        ? code(source.header)
        : "body" in source
          ? `body ${code(source.body)}`
          : "formField" in source
            ? `form field ${code(source.formField)}`
            : code(source.pair),
    )
    .join(" or ");
  const window =
    "timestamp" in scheme && scheme.timestamp !== undefined ? `${scheme.timestamp.toleranceSeconds} s` : "—";
  return `| ${code(scheme.id)} | ${scheme.kind} | ${cell(where)} | ${cell(scheme.label)} | ${window} |`;
}

export function schemeTable(
  providers: readonly Provider[] = PROVIDERS,
  headerSchemes: readonly HeaderScheme[] = HEADER_SCHEMES,
): string {
  const seen = new Set<string>();
  const lines = [
    "| Scheme id | Kind | Signature in | What is signed, and how | Window |",
    "|---|---|---|---|---|",
  ];
  const schemes = [
    ...providers.flatMap((provider) => provider.schemes),
    ...headerSchemes.map((h) => h.scheme),
  ];
  for (const scheme of schemes) {
    if (seen.has(scheme.id)) continue;
    seen.add(scheme.id);
    lines.push(describeScheme(scheme));
  }
  return lines.join("\n");
}

export function signalTable(providers: readonly Provider[] = PROVIDERS): string {
  const lines = ["| Provider | Header | Meaning |", "|---|---|---|"];
  for (const provider of providers) {
    for (const [header, meaning] of provider.signals)
      lines.push(`| ${cell(provider.name)} | ${code(header)} | ${cell(meaning)} |`);
  }
  return lines.join("\n");
}

const SECTIONS: ReadonlyArray<readonly [name: string, render: () => string]> = [
  ["providers", providerTable],
  ["schemes", schemeTable],
  ["signals", signalTable],
];

/** The document with every generated section replaced by its current rendering. */
export function regenerate(document: string): string {
  let text = document;
  for (const [name, render] of SECTIONS) {
    const start = `<!-- generated:${name}:start -->`;
    const end = `<!-- generated:${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from === -1 || to < from) throw new Error(`${DOC_PATH} lacks the ${start} ... ${end} markers`);
    text = `${text.slice(0, from + start.length)}\n${render()}\n${text.slice(to)}`;
  }
  return text;
}

if (import.meta.main) {
  const { readFileSync, writeFileSync } = await import("node:fs");
  const before = readFileSync(DOC_FILE, "utf8");
  const after = regenerate(before);
  writeFileSync(DOC_FILE, after);
  console.log(before === after ? `${DOC_PATH} is up to date.` : `${DOC_PATH} regenerated.`);
}
