/**
 * Finds timestamp-like values in the body tree and renders them as HTTP-dates. Recognised:
 * ISO 8601 / RFC 3339 date-times under any key (with a zone, or zone-less read as UTC), and epoch
 * seconds or milliseconds (numbers, or strings of digits) under time-like keys. The walk is
 * iterative, and paths are built only for the values reported, so deep nesting stays linear.
 */
import {
  ARRAY,
  after,
  type JsonDoc,
  KEY,
  NUMBER,
  OBJECT,
  rawText,
  STRING,
  stringValue,
} from "./body/json.ts";
import type { JsonRef } from "./body/tree.ts";

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
  // The pattern fixes where the date, hours and minutes are (`yyyy-mm-ddThh:mm`) and the seconds follow.
  const year = decimalAt(text, 0, 4);
  const month = decimalAt(text, 5, 2);
  const day = decimalAt(text, 8, 2);
  const hour = decimalAt(text, 11, 2);
  const minute = decimalAt(text, 14, 2);
  const second = m[6] === undefined ? 0 : decimalAt(text, 17, 2);
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
  const unix = utcSeconds(year, month, day, hour, minute, second) - offset;
  return { unix, kind: zoned ? "iso8601" : "iso8601-no-zone" };
}

/** Seconds since the epoch of a UTC calendar date and time (a second of 60 rolls over). */
function utcSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime() / 1000;
}

/** The number written by the `count` decimal digits at `from`. */
function decimalAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + text.charCodeAt(i) - 0x30;
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
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
 * One pass over the tape in document order. Per depth, arrays hold where the open container ends,
 * whether it is an array and, for its current child, the key node or array index that leads to it
 * and the key node whose name governs it (array items inherit their array's name). Names are
 * decoded, and paths built, only for values that need them.
 */
export function findTimestamps(root: JsonRef | null, limit = 1000): TimestampScan {
  const rows: TimestampRow[] = [];
  let total = 0;
  if (root === null) return { rows, total };
  const { doc } = root;
  const stop = after(doc, root.node);
  // Indexed by depth rather than pushed and popped: entries past `depth` are stale, never read.
  const ends: number[] = [];
  const inArray: boolean[] = [];
  /** For the current child of the container at each depth: its key node (objects) or -1. */
  const keyNodes: number[] = [];
  /** ... its index (arrays). */
  const indexes: number[] = [];
  /** ... the key node whose name governs it, or -1. */
  const nameNodes: number[] = [];
  let depth = 0;
  for (let i = root.node; i < stop; i++) {
    while (depth > 0 && (ends[depth - 1] ?? 0) <= i) depth--;
    const kind = doc.kind[i];
    if (kind === KEY) {
      keyNodes[depth - 1] = i;
      nameNodes[depth - 1] = i;
      continue;
    }
    if (depth > 0 && inArray[depth - 1] === true) {
      indexes[depth - 1] = (indexes[depth - 1] ?? -1) + 1;
      // Array items inherit the name of the member holding the array (`{"ts": [1700000000]}`).
      nameNodes[depth - 1] = depth >= 2 ? (nameNodes[depth - 2] ?? -1) : -1;
    }
    if (kind === OBJECT || kind === ARRAY) {
      ends[depth] = doc.end[i] ?? i + 1;
      inArray[depth] = kind === ARRAY;
      keyNodes[depth] = -1;
      indexes[depth] = -1;
      nameNodes[depth] = -1;
      depth++;
      continue;
    }
    if (!mayBeTimestamp(doc, i)) continue;
    const found = readTimestamp(doc, i, depth > 0 ? (nameNodes[depth - 1] ?? -1) : -1);
    if (found === null) continue;
    total++;
    if (rows.length < limit) {
      // Only the last segments are rendered, so a value nested 100 000 deep costs no more than one at 64.
      const path: Array<string | number> = [];
      for (let d = Math.max(0, depth - MAX_PATH_SEGMENTS); d < depth; d++) {
        const keyNode = keyNodes[d] ?? -1;
        path.push(inArray[d] === true ? (indexes[d] ?? 0) : keyNode >= 0 ? stringValue(doc, keyNode) : "");
      }
      const { instant, raw } = found;
      const field = renderPath(path, depth > MAX_PATH_SEGMENTS);
      rows.push({
        field,
        "raw-value": raw,
        utc: httpDate(instant.unix),
        unix: instant.unix,
        kind: instant.kind,
      });
    }
  }
  return { rows, total };
}

/**
 * Rules out most scalars without slicing them: epoch seconds have at least nine digits and ISO
 * date-times at least sixteen characters. A string with no escape shows its value as written, so
 * its shape can be checked in place: a date-time starts `dddd-` and has at most 64 characters, an
 * epoch starts `ddddd` and has at most 24.
 */
function mayBeTimestamp(doc: JsonDoc, node: number): boolean {
  const kind = doc.kind[node];
  const start = doc.start[node] ?? 0;
  const tokenLength = (doc.end[node] ?? 0) - start;
  if (kind === NUMBER) return tokenLength >= 9;
  if (kind !== STRING || tokenLength < 11) return false;
  if (doc.escaped[node] === 1) return true;
  const text = doc.text;
  const length = tokenLength - 2;
  if (length > 64 || !allDigits(text, start + 1, 4)) return false;
  const fifth = text.charCodeAt(start + 5);
  return fifth === 0x2d /* - */ || (isDigit(fifth) && length <= 24);
}

function allDigits(text: string, from: number, count: number): boolean {
  for (let i = from; i < from + count; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/** The instant a string or number node holds, with its text; epochs count only under a time-like name. */
function readTimestamp(
  doc: JsonDoc,
  node: number,
  nameNode: number,
): { instant: Instant; raw: string } | null {
  const timeLike = () => nameNode >= 0 && isTimeLikeKey(stringValue(doc, nameNode));
  if (doc.kind[node] === NUMBER) {
    const raw = rawText(doc, node);
    const epoch = parseEpoch(raw);
    return epoch !== null && timeLike() ? { instant: epoch, raw } : null;
  }
  const raw = stringValue(doc, node);
  // The cheap value test comes before the name test: most values are not epochs at all.
  const iso = parseIsoDateTime(raw);
  if (iso !== null) return { instant: iso, raw };
  const epoch = looksNumeric(raw) ? parseEpoch(raw) : null;
  return epoch !== null && timeLike() ? { instant: epoch, raw } : null;
}

function looksNumeric(text: string): boolean {
  return isDigit(text.charCodeAt(0));
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
