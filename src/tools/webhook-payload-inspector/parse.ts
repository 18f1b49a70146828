/**
 * Splits a pasted webhook request into its request line, header lines and body. The rules are
 * written out in docs/tools/webhook-payload-inspector.md ("Parsing"); this is their only
 * implementation. Linear time: lines are found with indexOf and every check is a plain scan, so a
 * megabyte of hostile input costs one pass (no regular expression here can backtrack).
 */

export interface RequestLine {
  readonly text: string;
  readonly method: string;
  readonly target: string;
  readonly version: string;
}

export interface Header {
  /** The name as written. */
  readonly name: string;
  /** The value with surrounding spaces and tabs removed; folded lines joined with one space. */
  readonly value: string;
}

export interface SplitRequest {
  readonly requestLine: RequestLine | null;
  readonly headers: readonly Header[];
  /** Everything after the head, as given (a body-only payload keeps its BOM and leading spaces). */
  readonly body: string;
  readonly notes: readonly string[];
}

const MAX_NOTES = 20;

export function splitRequest(payload: string): SplitRequest {
  const notes: string[] = [];
  const note = (text: string) => {
    if (notes.length < MAX_NOTES) notes.push(text);
    else if (notes.length === MAX_NOTES) notes.push("Further notes about ignored lines were left out.");
  };
  const headStart = payload.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (startsWithJson(payload, headStart)) return { requestLine: null, headers: [], body: payload, notes };

  let requestLine: RequestLine | null = null;
  const headers: Header[] = [];
  let lineNumber = 0;
  let position = headStart;
  // Lines are index ranges [position, end) of the payload; only names and values are ever sliced.
  while (position <= payload.length) {
    const newline = payload.indexOf("\n", position);
    let end = newline === -1 ? payload.length : newline;
    const next = newline === -1 ? payload.length + 1 : newline + 1;
    if (end > position && payload.charCodeAt(end - 1) === 0x0d) end--;
    lineNumber++;

    if (isBlank(payload, position, end)) {
      // The first empty line ends the head; the body is everything after it, untouched.
      return { requestLine, headers, body: next > payload.length ? "" : payload.slice(next), notes };
    }
    const colon = headerColon(payload, position, end);
    if (lineNumber === 1) {
      requestLine = parseRequestLine(payload.slice(position, end));
      if (requestLine !== null) {
        position = next;
        continue;
      }
      // A first line that is neither a request line nor a header: the whole payload is the body
      // (a bare form body, XML or text pasted on its own).
      if (colon === -1) return { requestLine: null, headers: [], body: payload, notes };
    }
    const first = payload.charCodeAt(position);
    if (first === 0x20 || first === 0x09) {
      const previous = headers.at(-1);
      if (previous === undefined) {
        note(`Line ${lineNumber} is indented but follows no header, so it was ignored.`);
      } else {
        const more = trimmed(payload, position, end);
        headers[headers.length - 1] = {
          name: previous.name,
          value: previous.value === "" ? more : `${previous.value} ${more}`,
        };
      }
    } else if (first === 0x7b || first === 0x5b) {
      // No empty line before it: the first line opening a JSON object or array starts the body.
      return { requestLine, headers, body: payload.slice(position), notes };
    } else if (colon === -1) {
      note(`Line ${lineNumber} is not a "Name: value" header line, so it was ignored.`);
    } else {
      headers.push({ name: payload.slice(position, colon), value: trimmed(payload, colon + 1, end) });
    }
    position = next;
  }
  return { requestLine, headers, body: "", notes };
}

/** True when the text, after whitespace, opens a JSON object or array: such a payload is all body. */
function startsWithJson(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return false;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** text[from, to) without surrounding spaces and tabs. */
function trimmed(text: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** `METHOD target HTTP/x[.y]`, single spaces, the method in letters. */
export function parseRequestLine(line: string): RequestLine | null {
  const firstSpace = line.indexOf(" ");
  const lastSpace = line.lastIndexOf(" ");
  if (firstSpace <= 0 || lastSpace === firstSpace) return null;
  const method = line.slice(0, firstSpace);
  const target = line.slice(firstSpace + 1, lastSpace);
  const version = line.slice(lastSpace + 1);
  for (let i = 0; i < method.length; i++) {
    const c = method.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) return null;
  }
  if (target === "" || target.includes(" ") || target.includes("\t")) return null;
  if (!isHttpVersion(version)) return null;
  return { text: line, method, target, version };
}

function isHttpVersion(text: string): boolean {
  if (!text.startsWith("HTTP/")) return false;
  const number = text.slice(5);
  const digit = (i: number) => {
    const c = number.charCodeAt(i);
    return c >= 0x30 && c <= 0x39;
  };
  if (number.length === 1) return digit(0);
  return number.length === 3 && digit(0) && number.charAt(1) === "." && digit(2);
}

/** The header name when the line reads `Name: value` with a token name (RFC 9110 tchar), else null. */
export function headerName(line: string): string | null {
  const colon = headerColon(line, 0, line.length);
  return colon === -1 ? null : line.slice(0, colon);
}

/** Index of the colon ending a token name at the start of text[from, to), or -1. */
function headerColon(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) return i > from ? i : -1;
    if (!isTchar(c)) return -1;
  }
  return -1;
}

/** RFC 9110 token characters: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ */
const TCHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9]/.test(ch) || "!#$%&'*+-.^_`|~".includes(ch)) TCHAR[c] = 1;
}

function isTchar(c: number): boolean {
  return c < 128 && TCHAR[c] === 1;
}
