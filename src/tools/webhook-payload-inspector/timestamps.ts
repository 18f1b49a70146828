/**
 * Finds timestamp-like values in the body tree and renders them as HTTP-dates. Recognised:
 * ISO 8601 / RFC 3339 date-times under any key (with a zone, or zone-less read as UTC), and epoch
 * seconds or milliseconds (numbers, or strings of digits) under time-like keys. The walk is
 * iterative, and paths are built only for the values reported, so deep nesting stays linear.
 */
import type { JsonNode } from "./json.ts";

export type TimestampKind = "iso8601" | "iso8601-no-zone" | "epoch-seconds" | "epoch-milliseconds";

export interface TimestampRow {
  readonly field: string;
  readonly "raw-value": string;
  readonly utc: string;
  readonly unix: number;
  readonly kind: TimestampKind;
}

export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z; sub-seconds dropped. */
  readonly unix: number;
  readonly kind: TimestampKind;
}

/** Epoch values are only believed between 2000-01-01 and 2100-01-01, so ids and counts are not dates. */
const EPOCH_MIN_SECONDS = 946_684_800;
const EPOCH_MAX_SECONDS = 4_102_444_800;

/** `Tue, 14 Nov 2023 22:13:20 GMT` (RFC 9110 IMF-fixdate). */
export function httpDate(unix: number): string {
  return new Date(unix * 1000).toUTCString();
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** An ISO 8601 / RFC 3339 date-time with at least hours and minutes; offsets applied. */
export function parseIsoDateTime(text: string): Instant | null {
  if (text.length < 16 || text.length > 64) return null;
  const m = ISO_DATE_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  const zoned = m[7] !== undefined || m[8] !== undefined;
  let offset = 0;
  if (m[8] !== undefined) {
    const offsetHours = Number(m[9]);
    const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    offset = (m[8] === "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return { unix: date.getTime() / 1000 - offset, kind: zoned ? "iso8601" : "iso8601-no-zone" };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Digits with an optional fraction, read as epoch seconds or milliseconds by their size. */
export function parseEpoch(text: string): Instant | null {
  if (text.length === 0 || text.length > 24) return null;
  const dot = text.indexOf(".");
  const whole = dot === -1 ? text : text.slice(0, dot);
  const fraction = dot === -1 ? "" : text.slice(dot + 1);
  if (!/^\d+$/.test(whole) || (dot !== -1 && !/^\d+$/.test(fraction))) return null;
  const value = Number(whole);
  if (value >= EPOCH_MIN_SECONDS && value < EPOCH_MAX_SECONDS) return { unix: value, kind: "epoch-seconds" };
  if (value >= EPOCH_MIN_SECONDS * 1000 && value < EPOCH_MAX_SECONDS * 1000) {
    return { unix: Math.floor(value / 1000), kind: "epoch-milliseconds" };
  }
  return null;
}

const TIME_WORDS = new Set([
  "at",
  "ts",
  "time",
  "timestamp",
  "date",
  "datetime",
  "created",
  "updated",
  "modified",
  "deleted",
  "exp",
  "iat",
  "nbf",
  "expires",
  "expiry",
  "expiration",
  "epoch",
  "on",
  "sent",
  "received",
  "when",
]);

/**
 * True when the member name reads as a time: any of its words (split at `_`, `-`, `.`, spaces and
 * camelCase humps) is one of TIME_WORDS, so `created_at`, `createdAt`, `event_ts`, `exp`,
 * `webhookTimestamp` and `occurredAt` qualify, and `id` or `amount` do not.
 */
export function isTimeLikeKey(key: string): boolean {
  if (key.length > 64) return false;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.\-[\]]+/);
  return words.some((word) => TIME_WORDS.has(word));
}

interface PathLink {
  readonly parent: PathLink | null;
  readonly segment: string | number;
}

const MAX_PATH_SEGMENTS = 64;

/** `repository.created_at`, `items[2].ts`; names that would confuse the notation are quoted. */
export function renderPath(link: PathLink | null): string {
  const segments: Array<string | number> = [];
  for (let at = link; at !== null; at = at.parent) segments.push(at.segment);
  segments.reverse();
  const truncated = segments.length > MAX_PATH_SEGMENTS;
  const shown = truncated ? segments.slice(-MAX_PATH_SEGMENTS) : segments;
  let path = truncated ? "…" : "";
  for (const segment of shown) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path === "" ? "(body)" : path;
}

export interface TimestampScan {
  readonly rows: TimestampRow[];
  /** Every timestamp found; rows stop at the limit. */
  readonly total: number;
}

/** Walks the tree in document order. `limit` caps the rows (and the paths built) for huge bodies. */
export function findTimestamps(root: JsonNode | null, limit = 1000): TimestampScan {
  const rows: TimestampRow[] = [];
  let total = 0;
  if (root === null) return { rows, total };
  interface Visit {
    readonly node: JsonNode;
    readonly path: PathLink | null;
    /** The member name that holds this value (array items inherit their array's name). */
    readonly key: string | null;
  }
  const stack: Visit[] = [{ node: root, path: null, key: null }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { node, path, key } = visit;
    if (node.kind === "object") {
      for (let i = node.entries.length - 1; i >= 0; i--) {
        const entry = node.entries[i];
        if (entry !== undefined)
          stack.push({ node: entry.value, path: { parent: path, segment: entry.key }, key: entry.key });
      }
      continue;
    }
    if (node.kind === "array") {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i];
        if (item !== undefined) stack.push({ node: item, path: { parent: path, segment: i }, key });
      }
      continue;
    }
    let found: Instant | null = null;
    let raw = "";
    if (node.kind === "string") {
      raw = node.value;
      found = parseIsoDateTime(raw) ?? (key !== null && isTimeLikeKey(key) ? parseEpoch(raw) : null);
    } else if (node.kind === "number" && key !== null && isTimeLikeKey(key)) {
      raw = node.raw;
      found = parseEpoch(raw);
    }
    if (found === null) continue;
    total++;
    if (rows.length < limit) {
      rows.push({
        field: renderPath(path),
        "raw-value": raw,
        utc: httpDate(found.unix),
        unix: found.unix,
        kind: found.kind,
      });
    }
  }
  return { rows, total };
}
