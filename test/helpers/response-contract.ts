/**
 * Checks every response an in-process test app sends against the app's own `/openapi.json`: its
 * path and method must be documented (or it is a 404/405 problem, or the 404 page to a browser),
 * its status listed, its content type one the document gives for that status, and its body valid
 * against that schema. The pages and files for browsers, which the document leaves out, are held to
 * their own declarations. The test helper records responses as they leave and checks them all when
 * the app closes, so the whole HTTP suite runs against the document and a mismatch fails the test
 * file that caused it.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { FastifyInstance } from "fastify";
import { consentEndpoints } from "../../src/console/consent.ts";
import { consoleEndpoints } from "../../src/console/routes.ts";
import { signinEndpoints } from "../../src/console/signin.ts";
import {
  type EndpointSpec,
  EVERY_ENDPOINT_ERRORS,
  NOT_FOUND_PAGE,
  PATH_PARAMETER_ERRORS,
} from "../../src/core/kernel/endpoint.ts";
import { errorCatalog } from "../../src/core/kernel/errors.ts";
import { referenceAssetRoutes } from "../../src/http/routes/docs.ts";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
}

type Json = Record<string, unknown>;

export interface ResponseContract {
  /** Throws naming every recorded response that does not match the document. */
  check(): void;
}

export function recordResponses(app: FastifyInstance): ResponseContract {
  const seen: Seen[] = [];
  let recording = true;
  app.addHook("onSend", async (request, reply, payload) => {
    if (!recording || request.method === "HEAD") return payload;
    const body =
      typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : "";
    const type = reply.getHeader("content-type");
    seen.push({
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      contentType: typeof type === "string" ? type : undefined,
      body,
    });
    return payload;
  });
  return {
    check() {
      recording = false;
      // From the app itself, not a request: a test may have closed the app already.
      const document = app.openApiDocument() as Json;
      const mismatches = seen.map((response) => mismatch(document, response)).filter((m) => m !== "");
      if (mismatches.length > 0) {
        throw new Error(`Responses that do not match /openapi.json:\n${[...new Set(mismatches)].join("\n")}`);
      }
    },
  };
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
/** The validators of the document last checked against, kept while the apps of a file serve the same one. */
const validators = new Map<string, Map<string, ReturnType<typeof ajv.compile>>>();

/** Each app builds its own document object; apps built alike build the same text. */
const texts = new WeakMap<Json, string>();

function validatorFor(document: Json, pointer: string) {
  let text = texts.get(document);
  if (text === undefined) {
    text = JSON.stringify(document);
    texts.set(document, text);
  }
  let byPointer = validators.get(text);
  if (byPointer === undefined) {
    ajv.removeSchema("openapi.json");
    ajv.addSchema(document, "openapi.json");
    byPointer = new Map();
    validators.clear();
    validators.set(text, byPointer);
  }
  let validate = byPointer.get(pointer);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
    byPointer.set(pointer, validate);
  }
  return validate;
}

function mismatch(document: Json, response: Seen): string {
  const label = `${response.method} ${response.url} -> ${response.status} ${response.contentType ?? "(no type)"}`;
  const path = documentedPath(document, response.url, response.method.toLowerCase());
  if (path === undefined) {
    const page = forBrowsers.find(
      (endpoint) => endpoint.method === response.method && matches(endpoint.path, response.url),
    );
    if (page !== undefined) return pageMismatch(document, page, response, label);
    if (response.status !== 404 && response.status !== 405) return `${label}: path and method not documented`;
    if (response.status === 404 && mediaTypeOf(response) === NOT_FOUND_PAGE.contentType)
      return response.body.includes('data-page="not-found"') ? "" : `${label}: not the console's 404 page`;
    return checkBody(document, "/components/schemas/Problem", response, label);
  }
  const responses = ((document.paths as Json)[path] as Json)[response.method.toLowerCase()] as Json;
  const answer = (responses.responses as Json)[String(response.status)] as Json | undefined;
  if (answer === undefined) return `${label}: status not documented for ${path}`;
  const content = (answer.content ?? {}) as Json;
  // An answer without content (304) may still name the representation's type.
  if (response.body === "" && (response.contentType === undefined || Object.keys(content).length === 0))
    return "";
  const mediaType = (response.contentType ?? "").split(";")[0]?.trim() ?? "";
  const media = content[mediaType] as Json | undefined;
  if (media === undefined)
    return `${label}: content type not documented (${Object.keys(content).join(", ")})`;
  if (media.schema === undefined) return "";
  const pointer = `/paths/${pointerSegment(path)}/${response.method.toLowerCase()}/responses/${response.status}/content/${pointerSegment(mediaType)}/schema`;
  return checkBody(document, pointer, response, label);
}

/** The console's pages (the OAuth consent page too) and the reference's files, which the document leaves out. */
const forBrowsers: readonly EndpointSpec[] = [
  ...consoleEndpoints,
  ...consentEndpoints,
  ...signinEndpoints,
  ...referenceAssetRoutes(),
];

function pageMismatch(document: Json, page: EndpointSpec, response: Seen, label: string): string {
  const mediaType = (response.contentType ?? "").split(";")[0]?.trim() ?? "";
  const declared = page.answers.some(
    (answer) =>
      answer.status === response.status &&
      (answer.contentType === undefined ? response.body === "" : answer.contentType === mediaType),
  );
  if (declared) return "";
  const codes = [
    ...page.errors,
    ...EVERY_ENDPOINT_ERRORS,
    ...PATH_PARAMETER_ERRORS,
    "method_not_allowed" as const,
  ];
  if (codes.some((code) => errorCatalog[code].status === response.status))
    return checkBody(document, "/components/schemas/Problem", response, label);
  return `${label}: not declared by ${page.method} ${page.path}`;
}

function mediaTypeOf(response: Seen): string {
  return (response.contentType ?? "").split(";")[0]?.trim() ?? "";
}

function checkBody(document: Json, pointer: string, response: Seen, label: string): string {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `${label}: body is not JSON`;
  }
  const validate = validatorFor(document, pointer);
  if (validate(body)) return "";
  return `${label}: ${ajv.errorsText(validate.errors)} in ${response.body.slice(0, 300)}`;
}

function matches(path: string, url: string): boolean {
  const pathname = url.split("?")[0] ?? "";
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(pathname);
}

/** The documented path a URL is served by: a concrete path before a templated one. */
function documentedPath(document: Json, url: string, method: string): string | undefined {
  const candidates = Object.entries(document.paths as Json)
    .filter(([, item]) => method in (item as Json))
    .map(([path]) => path)
    .filter((path) => matches(path, url));
  return candidates.sort((a, b) => templates(a) - templates(b))[0];
}

function templates(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}

function pointerSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
