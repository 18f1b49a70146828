/**
 * Finds timestamp-like values in the body tree and renders them as HTTP-dates. Recognised:
 * ISO 8601 / RFC 3339 date-times under any key (with a zone, or zone-less read as UTC), and epoch
 * seconds or milliseconds (numbers, or strings of digits) under time-like keys. The walk is
 * iterative, and paths are built only for the values reported, so deep nesting stays linear.
 */
import { ARRAY, after, KEY, NUMBER, OBJECT, rawText, STRING, stringValue } from "./json.ts";
import type { JsonRef } from "./tree.ts";

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
  const known = timeLikeCache.get(key);
  if (known !== undefined) return known;
  let result = false;
  let word = "";
  for (let i = 0; i <= key.length && !result; i++) {
    const c = key.charCodeAt(i);
    const upper = c >= 0x41 && c <= 0x5a;
    const letterOrDigit = upper || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    const previous = key.charCodeAt(i - 1);
    // A word ends at a separator, at the end, or before a capital that follows a lower-case letter or digit.
    const hump = upper && ((previous >= 0x61 && previous <= 0x7a) || (previous >= 0x30 && previous <= 0x39));
    if (!letterOrDigit || hump) {
      if (word !== "" && TIME_WORDS.has(word.toLowerCase())) result = true;
      word = "";
    }
    if (letterOrDigit) word += key.charAt(i);
  }
  // Bodies repeat the same few names many times; the cache is bounded against hostile ones.
  if (timeLikeCache.size > 10_000) timeLikeCache.clear();
  timeLikeCache.set(key, result);
  return result;
}

const timeLikeCache = new Map<string, boolean>();

const MAX_PATH_SEGMENTS = 64;

/** `repository.created_at`, `items[2].ts`; names that would confuse the notation are quoted. */
export function renderPath(segments: ReadonlyArray<string | number>, truncated = false): string {
  let path = truncated ? "…" : "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment))
      path += path === "" || path === "…" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path === "" ? "(body)" : path;
}

export interface TimestampScan {
  readonly rows: TimestampRow[];
  /** Every timestamp found; rows stop at the limit. */
  readonly total: number;
}

/**
 * One pass over the tape in document order. Per open container a stack holds where it ends and,
 * for its current child, the key node or array index that leads to it and the key node whose name
 * governs it (array items inherit their array's name). Names are decoded, and paths built, only
 * for values that need them.
 */
export function findTimestamps(root: JsonRef | null, limit = 1000): TimestampScan {
  const rows: TimestampRow[] = [];
  let total = 0;
  if (root === null) return { rows, total };
  const { doc } = root;
  const stop = after(doc, root.node);
  const ends: number[] = [];
  const isArray: boolean[] = [];
  /** For the current child of the container at each depth: its key node (objects) or -1. */
  const keyNodes: number[] = [];
  /** ... its index (arrays). */
  const indexes: number[] = [];
  /** ... the key node whose name governs it, or -1. */
  const nameNodes: number[] = [];
  const timeLike = (node: number): boolean => node >= 0 && isTimeLikeKey(stringValue(doc, node));
  for (let i = root.node; i < stop; i++) {
    while (ends.length > 0 && (ends.at(-1) ?? 0) <= i) {
      ends.pop();
      isArray.pop();
      keyNodes.pop();
      indexes.pop();
      nameNodes.pop();
    }
    const kind = doc.kind[i];
    const depth = ends.length;
    if (kind === KEY) {
      keyNodes[depth - 1] = i;
      nameNodes[depth - 1] = i;
      continue;
    }
    if (depth > 0 && isArray[depth - 1] === true) {
      indexes[depth - 1] = (indexes[depth - 1] ?? -1) + 1;
      // Array items inherit the name of the member holding the array (`{"ts": [1700000000]}`).
      nameNodes[depth - 1] = depth >= 2 ? (nameNodes[depth - 2] ?? -1) : -1;
    }
    if (kind === OBJECT || kind === ARRAY) {
      ends.push(doc.end[i] ?? i + 1);
      isArray.push(kind === ARRAY);
      keyNodes.push(-1);
      indexes.push(-1);
      nameNodes.push(-1);
      continue;
    }
    // Nothing shorter than nine characters is a timestamp (epoch seconds have at least nine
    // digits, ISO date-times sixteen characters), so most values are skipped without slicing.
    const tokenLength = (doc.end[i] ?? 0) - (doc.start[i] ?? 0);
    if ((kind !== STRING && kind !== NUMBER) || tokenLength < (kind === STRING ? 11 : 9)) continue;
    const nameNode = depth > 0 ? (nameNodes[depth - 1] ?? -1) : -1;
    let found: Instant | null = null;
    let raw = "";
    if (kind === STRING) {
      raw = stringValue(doc, i);
      // The cheap value test comes before the name test: most values are not epochs at all.
      found = parseIsoDateTime(raw);
      if (found === null && looksNumeric(raw)) {
        const epoch = parseEpoch(raw);
        found = epoch !== null && timeLike(nameNode) ? epoch : null;
      }
    } else {
      const epoch = parseEpoch(rawText(doc, i));
      if (epoch !== null && timeLike(nameNode)) {
        raw = rawText(doc, i);
        found = epoch;
      }
    }
    if (found === null) continue;
    total++;
    if (rows.length < limit) {
      // Only the last segments are rendered, so a value nested 100 000 deep costs no more than one at 64.
      const path: Array<string | number> = [];
      for (let d = Math.max(0, depth - MAX_PATH_SEGMENTS); d < depth; d++) {
        const keyNode = keyNodes[d] ?? -1;
        path.push(isArray[d] === true ? (indexes[d] ?? 0) : keyNode >= 0 ? stringValue(doc, keyNode) : "");
      }
      const field = renderPath(path, depth > MAX_PATH_SEGMENTS);
      rows.push({ field, "raw-value": raw, utc: httpDate(found.unix), unix: found.unix, kind: found.kind });
    }
  }
  return { rows, total };
}

function looksNumeric(text: string): boolean {
  const c = text.charCodeAt(0);
  return c >= 0x30 && c <= 0x39;
}
