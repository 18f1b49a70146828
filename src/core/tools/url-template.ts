/**
 * The `url` of an HTTP tool: a fixed origin, then a path and query in which `{field}` stands for
 * that input value, expanded as RFC 6570 simple expansion does: every character but the
 * unreserved ones (letters, digits, `-`, `.`, `_`, `~`) percent-encoded as UTF-8, so a value stays
 * inside the one path segment or query value it fills (`/`, `?`, `#`, `&`, `=`, `@`, `%` and CR LF
 * included). A path segment that a value would make `.` or `..` is refused: the URL parser would
 * resolve it, `%2E` forms too, and leave the segment. Written here because the template libraries
 * on npm expand into a string the caller then parses, which is the step that must not resolve dot
 * segments, and the origin must be checked before any value touches the URL.
 */

type Part = { readonly literal: string } | { readonly field: string };

export interface UrlTemplate {
  /** `scheme://host[:port]`, never from input. */
  readonly origin: string;
  readonly path: readonly Part[];
  /** The query after `?`, without it; empty when the template has none. */
  readonly query: readonly Part[];
  readonly pathFields: readonly string[];
  readonly queryFields: readonly string[];
}

const FIELD_NAME = /^[A-Za-z0-9_.-]+$/;
const TEMPLATE = /^(https?:\/\/[^/?#{}]+)(\/[^?#]*)?(?:\?([^#]*))?$/i;

/** Parses a template; the problem, phrased after "url", when it is not one. */
export function parseUrlTemplate(
  template: string,
): { readonly template: UrlTemplate } | { readonly problem: string } {
  const match = TEMPLATE.exec(template);
  if (!match)
    return {
      problem:
        "must be an http:// or https:// URL with a fixed host, then a path and query that may hold {field}, and no #fragment",
    };
  const [, originText = "", pathText = "/", queryText = ""] = match;
  let origin: URL;
  try {
    origin = new URL(originText);
  } catch {
    return { problem: `has no valid origin (${originText})` };
  }
  // What follows `//` must be the host as every URL parser reads it: WHATWG's reads `\` as `/`
  // (`https://evil.example\@api.example/` is evil.example to it, api.example to others).
  const authority = originText.slice(originText.indexOf("//") + 2);
  if (/[\\%\s]/.test(authority) || origin.pathname !== "/" || origin.search !== "")
    return {
      problem: `has an origin URL parsers read differently (${JSON.stringify(originText)}): write scheme://host[:port] only`,
    };
  if (origin.username !== "" || origin.password !== "")
    return { problem: "must not hold credentials; put them in a header whose value reads a variable" };
  const path = parseParts(pathText);
  const query = parseParts(queryText);
  if ("problem" in path) return path;
  if ("problem" in query) return query;
  const parsed: UrlTemplate = {
    origin: origin.origin,
    path: path.parts,
    query: query.parts,
    pathFields: fieldsOf(path.parts),
    queryFields: fieldsOf(query.parts),
  };
  // With a harmless value in every field, the URL parser must give back what was written: no
  // literal dot segment, nothing it would encode or normalise.
  const sample = expandUrl(parsed, new Proxy({}, { get: () => "x" }), new Set());
  if ("field" in sample) return { problem: `has a dot segment around {${sample.field}}` };
  const reparsed = new URL(sample.url);
  if (
    reparsed.origin !== parsed.origin ||
    `${reparsed.pathname}${reparsed.search}` !== sample.url.slice(parsed.origin.length)
  )
    return {
      problem: "must be written as the URL parser keeps it: percent-encoded, without . or .. segments",
    };
  return { template: parsed };
}

/**
 * The URL for `input`: every field of the template filled, then, for the names in `asQuery`, those
 * input members appended as query parameters. `{ field }` names a path field whose value would
 * make a `.` or `..` segment, or an empty one (`//`).
 */
export function expandUrl(
  template: UrlTemplate,
  input: Readonly<Record<string, unknown>>,
  asQuery: ReadonlySet<string>,
): { readonly url: string } | { readonly field: string } {
  const segments: string[] = [];
  let segment = "";
  let segmentField: string | undefined;
  for (const part of template.path) {
    const text = "literal" in part ? part.literal : encodeValue(input[part.field]);
    if ("field" in part) segmentField = part.field;
    const pieces = text.split("/");
    for (let i = 0; i < pieces.length - 1; i++) {
      segments.push(segment + (pieces[i] ?? ""));
      if (segmentField !== undefined && isRefusedSegment(segments.at(-1))) return { field: segmentField };
      segment = "";
      segmentField = undefined;
    }
    segment += pieces.at(-1) ?? "";
  }
  segments.push(segment);
  if (segmentField !== undefined && isRefusedSegment(segment)) return { field: segmentField };

  const query = template.query.map((part) =>
    "literal" in part ? part.literal : encodeValue(input[part.field]),
  );
  const pairs = query.length > 0 && query.join("") !== "" ? [query.join("")] : [];
  for (const name of asQuery) {
    const value = input[name];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value])
      pairs.push(`${encodeText(name)}=${encodeValue(item)}`);
  }
  return { url: `${template.origin}${segments.join("/")}${pairs.length > 0 ? `?${pairs.join("&")}` : ""}` };
}

/**
 * A value as RFC 6570 simple expansion writes it: strings as they are, numbers and booleans as
 * JSON writes them, anything else (an object, null) as its JSON text; then percent-encoded.
 */
export function encodeValue(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return encodeText(text);
}

function encodeText(text: string): string {
  // A lone surrogate has no UTF-8 form: it becomes U+FFFD instead of failing the call.
  return encodeURIComponent(text.toWellFormed()).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A segment a field made that the URL parser would resolve away (`.`, `..`) or that would make `//`. */
function isRefusedSegment(segment: string | undefined): boolean {
  return segment === "." || segment === ".." || segment === "";
}

function parseParts(text: string): { readonly parts: Part[] } | { readonly problem: string } {
  const parts: Part[] = [];
  let rest = text;
  while (rest !== "") {
    const open = rest.indexOf("{");
    const close = rest.indexOf("}");
    if (open === -1) {
      if (close !== -1) return { problem: "has a } without its {" };
      parts.push({ literal: rest });
      break;
    }
    if (close < open) return { problem: "has a } without its {" };
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    const field = rest.slice(open + 1, close);
    if (!FIELD_NAME.test(field))
      return { problem: `has {${field}}, which is not a field name (letters, digits, _ . -)` };
    if (parts.at(-1) !== undefined && "field" in (parts.at(-1) as Part))
      return { problem: `has {${field}} right after another field; put a literal between them` };
    parts.push({ field });
    rest = rest.slice(close + 1);
  }
  return { parts };
}

function fieldsOf(parts: readonly Part[]): string[] {
  return [...new Set(parts.flatMap((part) => ("field" in part ? [part.field] : [])))];
}
