/**
 * The shared webhook corpus (../shared/webhook-corpus beside the repository; its README describes
 * the format): real captures from open-source projects' fixtures with the answers expected of
 * them, and signature known answers from providers' SDK tests. The corpus stays outside the
 * repository: TOOLRUN_WEBHOOK_CORPUS points at it (default `<repo>/../shared/webhook-corpus`).
 * Missing, it fails the run under CI=true and is skipped with a message otherwise.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { row, run } from "../../../test/helpers/tools/webhook-payload-inspector.ts";
import type { InspectorOutput } from "./schema.ts";

const CORPUS =
  process.env.TOOLRUN_WEBHOOK_CORPUS ??
  fileURLToPath(new URL("../../../../shared/webhook-corpus/", import.meta.url));
const present = existsSync(join(CORPUS, "captures", "expect.json"));
if (!present && process.env.CI === "true") {
  throw new Error(
    `The webhook corpus is missing at ${CORPUS}: check out shared/ beside the repository or set TOOLRUN_WEBHOOK_CORPUS.`,
  );
}
const skip = present
  ? false
  : `webhook corpus not found at ${CORPUS} (set TOOLRUN_WEBHOOK_CORPUS to run these tests)`;
if (!present) test("the shared webhook corpus", { skip }, () => {});

interface TimestampExpectation {
  readonly path: string;
  readonly raw: string | number;
  readonly http_date: string;
}

interface CaptureExpectation {
  readonly provider_accept: ReadonlyArray<string | null>;
  readonly event_type_accept: ReadonlyArray<string | null>;
  readonly request_line: { method: string; target: string; version: string } | null;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly header_count: number;
  readonly content_type: string | null;
  readonly format: string;
  readonly valid_json: boolean;
  readonly json_depth: number | null;
  readonly json_total_keys: number | null;
  readonly embedded_json?: ReadonlyArray<{
    field: string;
    valid: boolean;
    depth: number;
    total_keys: number;
  }>;
  readonly body_bytes: number;
  readonly body_chars: number;
  readonly timestamps: {
    readonly required: readonly TimestampExpectation[];
    readonly not_timestamps: ReadonlyArray<{ readonly path: string }>;
  };
  readonly signal_headers: { readonly required: ReadonlyArray<{ readonly name: string }> };
  readonly signature: {
    readonly secret?: string;
    readonly valid: boolean | null;
    readonly valid_if_supported?: boolean;
    readonly now?: number;
  };
}

interface SignatureVector {
  readonly id: string;
  readonly provider: string;
  readonly secret: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly valid: boolean;
  readonly reason?: string;
  readonly now?: number;
  readonly source: string;
}

function readJson<T>(...path: string[]): T {
  return JSON.parse(readFileSync(join(CORPUS, ...path), "utf8")) as T;
}

const FORMATS: Readonly<Record<string, string>> = { JSON: "json", form: "form", other: "text" };

const accepts = (list: ReadonlyArray<string | null>, value: string | null) =>
  list.some((item) => (item === null ? value === null : item.toLowerCase() === value?.toLowerCase()));

function checkCapture(output: InspectorOutput, expected: CaptureExpectation): void {
  const { values } = output;
  assert.ok(
    accepts(expected.provider_accept, values.providerName),
    `provider ${values.providerName} not in ${expected.provider_accept.join(", ")}`,
  );
  assert.ok(
    accepts(expected.event_type_accept, values.eventType),
    `event ${values.eventType} not in ${expected.event_type_accept.join(", ")}`,
  );
  const line = expected.request_line;
  assert.deepEqual(
    [values.method, values.target, values.httpVersion],
    line === null ? [null, null, null] : [line.method, line.target, line.version],
  );
  assert.deepEqual(
    output.headers.map((h) => [h.header, h.value]),
    expected.headers,
  );
  assert.equal(values.headerCount, expected.header_count);
  assert.equal(values.format, FORMATS[expected.format] ?? expected.format);
  assert.equal(values.bodyBytes, expected.body_bytes);
  assert.equal(values.characters, expected.body_chars);
  assert.equal(values.validJson, expected.valid_json);
  const embedded = expected.embedded_json ?? [];
  if (expected.format === "form" && embedded.length > 0) {
    // For a form, Depth and Total Keys describe the JSON held in its fields.
    assert.equal(values.depth, Math.max(...embedded.map((e) => e.depth)));
    assert.equal(
      values.totalKeys,
      embedded.reduce((sum, e) => sum + e.total_keys, 0),
    );
    const names = embedded.map((e) => e.field);
    assert.match(row(output, "Valid JSON"), new RegExp(`^No \\(fields? ${names.join(".*")}`));
  } else {
    assert.equal(values.depth, expected.json_depth);
    assert.equal(values.totalKeys, expected.json_total_keys);
  }
  for (const stamp of expected.timestamps.required) {
    const found = output.timestamps.find((t) => t.field === stamp.path);
    assert.ok(found, `timestamp ${stamp.path} listed`);
    assert.equal(found.utc, stamp.http_date, stamp.path);
  }
  for (const not of expected.timestamps.not_timestamps) {
    assert.equal(
      output.timestamps.find((t) => t.field === not.path),
      undefined,
      `${not.path} is not a timestamp`,
    );
  }
  const flagged = new Set(output.signals.map((s) => s.header.toLowerCase()));
  for (const header of expected.signal_headers.required) {
    assert.ok(flagged.has(header.name.toLowerCase()), `signal ${header.name} flagged`);
  }
}

/** Signed long ago and given no `now`: the README allows "signature matches, timestamp too old". */
/** A capture signed long ago verifies as expired when checked today: its signature still matches. */
const matchesButStale = (output: InspectorOutput) => output.verification.status === "expired";

function checkCaptureSignature(output: InspectorOutput, expected: CaptureExpectation["signature"]): void {
  const status = output.verification.status;
  if (expected.now === undefined && matchesButStale(output)) return;
  if (expected.valid === true) assert.equal(status, "valid", output.verification.reason);
  else if (expected.valid === false) assert.equal(status, "invalid", output.verification.reason);
  else if (expected.valid_if_supported === true)
    assert.ok(["valid", "unverifiable"].includes(status), `${status}: ${output.verification.reason}`);
}

describe("the shared webhook corpus: captures", () => {
  const expectations = present
    ? readJson<Record<string, CaptureExpectation>>("captures", "expect.json")
    : ({} as Record<string, CaptureExpectation>);
  const files = present ? readdirSync(join(CORPUS, "captures")).filter((f) => f.endsWith(".txt")) : [];

  if (present)
    test("every capture has an expectation, and there are 18", () => {
      assert.equal(files.length, 18);
      for (const file of files) assert.ok(expectations[file], file);
    });

  for (const file of files) {
    test(file, () => {
      const expected = expectations[file];
      assert.ok(expected);
      const payload = readFileSync(join(CORPUS, "captures", file), "utf8");
      const signature = expected.signature;
      const nowMs = signature.now === undefined ? Date.now() : signature.now * 1000;
      checkCapture(run(payload, undefined, nowMs), expected);
      if (signature.secret !== undefined)
        checkCaptureSignature(run(payload, signature.secret, nowMs), signature);
    });
  }
});

describe("the shared webhook corpus: signature known answers", () => {
  const vectors = present ? readJson<SignatureVector[]>("signature-vectors.json") : [];

  if (present) test("there are 14 known answers", () => assert.equal(vectors.length, 14));

  for (const vector of vectors) {
    test(`${vector.id} (${vector.source})`, () => {
      const head = Object.entries(vector.headers).map(([name, value]) => `${name}: ${value}`);
      const payload = [...head, "", vector.body].join("\r\n");
      const nowMs = vector.now === undefined ? Date.now() : vector.now * 1000;
      const { verification } = run(payload, vector.secret, nowMs);
      // The corpus's refusals are either a wrong signature or a right one outside the window; the
      // inspector tells the second apart as expired.
      const refused = /^signature matches/.test(vector.reason ?? "") ? "expired" : "invalid";
      assert.equal(
        verification.status,
        vector.valid ? "valid" : refused,
        `${vector.reason ?? "valid"}: ${verification.reason}`,
      );
    });
  }
});
