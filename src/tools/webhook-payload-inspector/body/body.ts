/**
 * What the body is: its format, size, whether it is valid JSON, how deep and how many keys, and the
 * text shown as `formatted`. Also builds the tree that provider detection and the timestamp walk
 * read: the JSON body itself, or a form body as an object of its decoded fields with any field that
 * holds JSON (Slack's and Travis CI's `payload=`) embedded as JSON.
 */
import { Buffer } from "node:buffer";
import { decodeForm, type FormField, looksLikeForm } from "./form.ts";
import { after, type JsonParseResult, parseJson } from "./json.ts";
import { type JsonMetrics, type JsonRef, measure, prettyPrint } from "./tree.ts";

export type FormatId = "json" | "form" | "xml" | "text" | "multipart" | "empty";

export const FORMAT_LABELS: Readonly<Record<FormatId, string>> = {
  json: "JSON",
  form: "Form (URL-encoded)",
  xml: "XML",
  text: "Text",
  multipart: "Multipart",
  empty: "Empty",
};

export interface BodyAnalysis {
  readonly format: FormatId;
  /** UTF-8 bytes of the body as given; a BOM counts. */
  readonly bytes: number;
  /** Unicode code points. */
  readonly characters: number;
  /** Whether the body is JSON: null when no JSON was expected (empty, XML, text), false for every form. */
  readonly validJson: boolean | null;
  /** A form's fields whose decoded value opens with `{` or `[`, in order; null for other bodies. */
  readonly jsonFields: readonly JsonField[] | null;
  readonly jsonError: string | null;
  /** Depth and keys of the valid JSON (the body, or the JSON fields of a form), else null. */
  readonly metrics: JsonMetrics | null;
  readonly formatted: string;
  /** The tree read by detection and the timestamp walk; null when the body has no structure. */
  readonly root: JsonRef | null;
  readonly formFields: readonly FormField[] | null;
  readonly notes: readonly string[];
}

/** A form field that holds (or tries to hold) JSON, measured when it parses. */
export interface JsonField {
  readonly field: string;
  readonly valid: boolean;
  readonly depth: number | null;
  readonly totalKeys: number | null;
}

export function mediaType(contentType: string | null): string | null {
  if (contentType === null) return null;
  const semicolon = contentType.indexOf(";");
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === "" ? null : type;
}

function isJsonMedia(type: string): boolean {
  return type === "application/json" || (type.includes("/") && type.endsWith("+json"));
}

function isXmlMedia(type: string): boolean {
  return type.endsWith("/xml") || type.endsWith("+xml");
}

const SURROGATE = /[\ud800-\udfff]/;

export function countCodePoints(text: string): number {
  // Most bodies hold no surrogate, and one native scan tells (a Latin-1 string cannot hold one).
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; a lone surrogate counts as one.
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Index of the first character after an optional BOM and whitespace. */
function contentStart(body: string): number {
  let i = body.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < body.length && " \t\r\n".includes(body.charAt(i))) i++;
  return i;
}

export function analyzeBody(body: string, contentType: string | null): BodyAnalysis {
  const bytes = Buffer.byteLength(body, "utf8");
  const characters = countCodePoints(body);
  const start = contentStart(body);
  const base = { bytes, characters, notes: [] as string[] };
  if (start >= body.length) {
    return {
      ...base,
      format: "empty",
      validJson: null,
      jsonFields: null,
      jsonError: null,
      metrics: null,
      formatted: "",
      root: null,
      formFields: null,
    };
  }
  const first = body.charAt(start);
  const jsonLike = first === "{" || first === "[";
  // A leading BOM is not JSON, but RFC 8259 lets a reader ignore it, so parsing starts after it.
  const jsonStart = body.charCodeAt(0) === 0xfeff ? 1 : 0;
  const type = mediaType(contentType);

  if (type !== null && isJsonMedia(type)) return analyzeJson(body, parseJson(body, jsonStart), base);
  if (jsonLike) {
    const parsed = parseJson(body, jsonStart);
    if (type === null || parsed.ok) {
      if (type !== null)
        base.notes.push(`The Content-Type is ${type}, but the body is JSON, so it was read as JSON.`);
      return analyzeJson(body, parsed, base);
    }
  }
  if (type === "application/x-www-form-urlencoded" || (type === null && looksLikeForm(body))) {
    return analyzeForm(body, base);
  }
  let format: FormatId = "text";
  if (type === null ? first === "<" : isXmlMedia(type)) format = "xml";
  else if (type?.startsWith("multipart/")) format = "multipart";
  return {
    ...base,
    format,
    validJson: null,
    jsonFields: null,
    jsonError: null,
    metrics: null,
    formatted: body,
    root: null,
    formFields: null,
  };
}

function formattingBudget(body: string): number {
  return Math.max(1024 * 1024, 8 * body.length);
}

type Base = { bytes: number; characters: number; notes: string[] };

function analyzeJson(body: string, parsed: JsonParseResult, base: Base): BodyAnalysis {
  if (!parsed.ok) {
    return {
      ...base,
      format: "json",
      validJson: false,
      jsonFields: null,
      jsonError: parsed.error,
      metrics: null,
      formatted: body,
      root: null,
      formFields: null,
    };
  }
  const metrics = measure(parsed.doc);
  let formatted = prettyPrint(parsed.doc, formattingBudget(body));
  if (formatted === null) {
    base.notes.push(
      `The JSON nests ${metrics.depth} levels deep; pretty-printed it would be far larger than the body, so "formatted" shows it as sent.`,
    );
    formatted = body;
  }
  return {
    ...base,
    format: "json",
    validJson: true,
    jsonFields: null,
    jsonError: null,
    metrics,
    formatted,
    root: { doc: parsed.doc, node: 0 },
    formFields: null,
  };
}

/**
 * A form becomes the JSON text of an object of its decoded fields, in order (repeated names kept),
 * where a field that parses as a JSON object or array is embedded as written; that text is then
 * parsed like any JSON body, so every later step reads one kind of tree. The body itself is not
 * JSON: `validJson` is false, and depth and keys describe the JSON fields (the docs' "Form bodies").
 */
function analyzeForm(body: string, base: Base): BodyAnalysis {
  const fields = decodeForm(body);
  const members: string[] = [];
  const embedded: boolean[] = [];
  const tried: Array<{ field: string; valid: boolean }> = [];
  let jsonError: string | null = null;
  for (const field of fields) {
    const start = contentStart(field.value);
    const opener = field.value.charAt(start);
    let member = JSON.stringify(field.value);
    if (opener === "{" || opener === "[") {
      const from = field.value.charCodeAt(0) === 0xfeff ? 1 : 0;
      const parsed = parseJson(field.value, from);
      if (parsed.ok) member = field.value.slice(from);
      else jsonError ??= `Field "${field.name}": ${parsed.error}`;
      tried.push({ field: field.name, valid: parsed.ok });
    }
    embedded.push(member.charAt(0) !== '"');
    members.push(`${JSON.stringify(field.name)}:${member}`);
  }
  const parsed = parseJson(`{${members.join(",")}}`);
  if (!parsed.ok) throw new Error(`form fields did not rebuild as JSON: ${parsed.error}`);
  const doc = parsed.doc;
  // Depth and keys describe the JSON found in fields, not the object built around them.
  const measured: JsonMetrics[] = [];
  let field = 0;
  for (let key = 1; key < doc.size; key = after(doc, key + 1), field++) {
    if (embedded[field] === true) measured.push(measure(doc, key + 1));
  }
  const jsonFields: JsonField[] = [];
  let next = 0;
  for (const attempt of tried) {
    const metrics = attempt.valid ? measured[next++] : undefined;
    jsonFields.push({ ...attempt, depth: metrics?.depth ?? null, totalKeys: metrics?.keys ?? null });
  }
  const metrics: JsonMetrics | null =
    measured.length === 0
      ? null
      : {
          depth: measured.reduce((deepest, m) => Math.max(deepest, m.depth), 0),
          keys: measured.reduce((sum, m) => sum + m.keys, 0),
        };
  const formatted = prettyPrint(doc, formattingBudget(body)) ?? body;
  return {
    ...base,
    format: "form",
    validJson: false,
    jsonFields,
    jsonError,
    metrics,
    formatted,
    root: { doc, node: 0 },
    formFields: fields,
  };
}
