/**
 * A body covered by a hash in the signed URL rather than by the signature itself: Twilio signs a
 * JSON body's request as the URL alone, with `bodySHA256=<hex SHA-256 of the body>` in its query,
 * and a receiver must check that hash too (twilio-node's `validateRequestWithBody`).
 */
import { Buffer } from "node:buffer";
import type { BodyHashCheck } from "../providers/provider-types.ts";
import type { SignedRequest } from "./signed-content.ts";
import { digest, sameText } from "./signing.ts";

/** The query parameter's value in the request target, or null. */
function queryParameter(request: SignedRequest, name: string): string | null {
  const target = request.requestLine?.target ?? "";
  const question = target.indexOf("?");
  if (question === -1) return null;
  return new URLSearchParams(target.slice(question + 1).split("#")[0]).get(name);
}

/** What is wrong with the body's hash, or null when it matches or the body is a form (whose fields are signed). */
export function bodyHashProblem(check: BodyHashCheck, request: SignedRequest, body: string): string | null {
  if (request.formFields !== null || body === "") return null;
  const expected = queryParameter(request, check.query);
  if (expected === null) {
    return `the body is not covered: the sender signs a body that is not a form through the URL's \`${check.query}\` parameter, and the request line has none.`;
  }
  const actual = digest(check.algorithm, Buffer.from(body, "utf8")).toString(check.encoding);
  if (sameText(expected.trim().toLowerCase(), actual)) return null;
  return `the URL's \`${check.query}\` (${expected}) is not the SHA-256 of the body (${actual}): the body was altered after signing.`;
}
