/**
 * The one check of a problem document (RFC 9457, docs/errors.md), whatever carried the answer:
 * `app.inject`, `fetch`, or a call recorded against a running server.
 */
import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import { DOCS_URL } from "./app.ts";

/** An answer read through `fetch`: its status (null when none came), headers and parsed body. */
export interface FetchedAnswer {
  readonly status: number | null;
  readonly headers: Headers | null;
  readonly body: unknown;
}

export type Answer = LightMyRequestResponse | FetchedAnswer;

function read(answer: Answer): { status: number | null; header(name: string): string | null; body: unknown } {
  if ("statusCode" in answer) {
    return {
      status: answer.statusCode,
      header: (name) => {
        const value = answer.headers[name];
        return value === undefined ? null : String(value);
      },
      body: answer.json(),
    };
  }
  return { status: answer.status, header: (name) => answer.headers?.get(name) ?? null, body: answer.body };
}

/**
 * Asserts `answer` is the problem document of `code` with `status`, linked to the code's page under
 * `docsUrl` (the test app's; null: any server's) and carrying the request id of its `x-request-id`
 * header. Returns the body for further checks.
 */
export function assertProblem(
  answer: Answer,
  status: number,
  code: string,
  docsUrl: string | null = DOCS_URL,
): Record<string, unknown> {
  const { status: actual, header, body } = read(answer);
  assert.equal(actual, status, JSON.stringify(body));
  assert.equal(header("content-type"), "application/problem+json; charset=utf-8");
  assert.ok(typeof body === "object" && body !== null, "the body is a JSON object");
  const problem = body as Record<string, unknown>;
  assert.equal(problem.status, status);
  assert.equal(problem.code, code);
  if (docsUrl === null) assert.match(String(problem.type), new RegExp(`^https?://\\S+/docs/errors/${code}$`));
  else assert.equal(problem.type, `${docsUrl}/errors/${code}`);
  assert.equal(typeof problem.title, "string");
  assert.equal(problem.request_id, header("x-request-id"));
  return problem;
}
