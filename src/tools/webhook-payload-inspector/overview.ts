/**
 * The twelve overview rows and their machine-readable twin, `values`, from the parts already
 * computed. One place decides what each row shows and when it shows `—`.
 */
import { type BodyAnalysis, FORMAT_LABELS } from "./body/body.ts";
import type { RequestLine } from "./parse.ts";
import type { Provider } from "./providers/provider-types.ts";
import {
  type InspectorValues,
  NOT_APPLICABLE,
  OVERVIEW_PROPERTIES,
  type OverviewProperty,
  type OverviewRow,
} from "./schema.ts";

export interface OverviewParts {
  readonly requestLine: RequestLine | null;
  readonly contentType: string | null;
  readonly headerCount: number;
  readonly body: BodyAnalysis;
  readonly provider: Provider | null;
  readonly eventType: string | null;
  readonly timestampsFound: number;
  readonly timestampsTotal: number;
}

export function buildValues(parts: OverviewParts): InspectorValues {
  const { body } = parts;
  return {
    requestLine: parts.requestLine?.text ?? null,
    method: parts.requestLine?.method ?? null,
    target: parts.requestLine?.target ?? null,
    httpVersion: parts.requestLine?.version ?? null,
    format: body.format,
    contentType: parts.contentType,
    bodyBytes: body.bytes,
    characters: body.characters,
    headerCount: parts.headerCount,
    validJson: body.validJson,
    jsonFields: body.jsonFields,
    jsonError: body.jsonError,
    depth: body.metrics?.depth ?? null,
    totalKeys: body.metrics?.keys ?? null,
    providerId: parts.provider?.id ?? null,
    providerName: parts.provider?.name ?? null,
    eventType: parts.eventType,
    timestampsFound: parts.timestampsFound,
    timestampsTotal: parts.timestampsTotal,
  };
}

const orDash = (value: string | number | null): string =>
  value === null || value === "" ? NOT_APPLICABLE : String(value);

/** "Yes"/"No" for JSON bodies; for a form "No" (it is not JSON itself), and which fields hold JSON. */
function validJsonRow(values: InspectorValues): string {
  if (values.validJson === null) return NOT_APPLICABLE;
  if (values.validJson) return "Yes";
  const fields = values.jsonFields ?? [];
  if (fields.length === 0) return "No";
  const groups = [true, false].flatMap((valid) => {
    const names = fields.filter((f) => f.valid === valid).map((f) => f.field);
    if (names.length === 0) return [];
    const listed = names.length === 1 ? `field ${names[0]} holds` : `fields ${listNames(names)} hold`;
    return [`${listed} ${valid ? "valid" : "invalid"} JSON`];
  });
  return `No (${groups.join("; ")})`;
}

const MAX_NAMED_FIELDS = 5;

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMED_FIELDS);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

export function buildOverview(values: InspectorValues): OverviewRow[] {
  const shown: Record<OverviewProperty, string> = {
    "Request Line": orDash(values.requestLine),
    Format: FORMAT_LABELS[values.format],
    "Content-Type": orDash(values.contentType),
    "Body Size": `${values.bodyBytes} B`,
    Characters: String(values.characters),
    "Header Count": String(values.headerCount),
    "Valid JSON": validJsonRow(values),
    Depth: orDash(values.depth),
    "Total Keys": orDash(values.totalKeys),
    Provider: orDash(values.providerName),
    "Event Type": orDash(values.eventType),
    "Timestamps Found": String(values.timestampsFound),
  };
  return OVERVIEW_PROPERTIES.map((property) => ({ property, value: shown[property] }));
}
