/**
 * A linear-time, non-recursive JSON parser (RFC 8259) that keeps what `JSON.parse` throws away:
 * the source text of every number and string, member order, and repeated member names.
 *
 * Why not `JSON.parse`: its reviver recurses (a 1 MiB `[[[[…]]]]` overflows the stack), it reorders
 * integer-like keys, keeps only the last of repeated keys, and a 19-digit id loses digits.
 *
 * The result is a "tape", not a tree of objects: one slot per node in a few typed arrays, in
 * document order (an object's member name is a KEY node followed by its value's nodes). A megabyte
 * of small values then costs no garbage-collected objects at all, and every walk (./tree.ts,
 * ../timestamps.ts) is a scan over indices. Scalars point into the source text and are sliced only
 * when read.
 */

export const OBJECT = 1;
export const ARRAY = 2;
export const STRING = 3;
export const NUMBER = 4;
export const TRUE = 5;
export const FALSE = 6;
export const NULL = 7;
/** A member name; the member's value is the node right after it. */
export const KEY = 8;

export interface JsonDoc {
  readonly text: string;
  /** Node count; node 0 is the root. */
  readonly size: number;
  readonly kind: Uint8Array;
  /** Offset of the node's first character in `text`. */
  readonly start: Int32Array;
  /** Scalars and keys: offset just after the token. Containers: index of the first node after the subtree. */
  readonly end: Int32Array;
  /** Strings and keys: 1 when the token holds a backslash escape. */
  readonly escaped: Uint8Array;
}

export type JsonParseResult =
  | { readonly ok: true; readonly doc: JsonDoc }
  | { readonly ok: false; readonly error: string };

class JsonSyntaxError extends Error {}

/** The characters allowed after a backslash besides `u`: " \ / b f n r t. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** Parses `text` from `from` to its end; whitespace around the value is allowed, nothing else. */
export function parseJson(text: string, from = 0): JsonParseResult {
  try {
    return { ok: true, doc: new Parser(text, from).parse() };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Typical JSON spends well over eight characters per node; the arrays double when it does not. */
const CHARACTERS_PER_NODE_GUESS = 8;

class Parser {
  private readonly text: string;
  private i: number;
  private size = 0;
  private kind: Uint8Array;
  private start: Int32Array;
  private end: Int32Array;
  private escaped: Uint8Array;
  private readonly backslashes: ForwardSearch;
  private readonly controlCharacters: ForwardSearch;

  constructor(text: string, from: number) {
    this.text = text;
    this.i = from;
    this.backslashes = new ForwardSearch((position) => text.indexOf("\\", position));
    this.controlCharacters = new ForwardSearch((position) => {
      CONTROL_CHARACTER.lastIndex = position;
      return CONTROL_CHARACTER.test(text) ? CONTROL_CHARACTER.lastIndex - 1 : -1;
    });
    const capacity = Math.ceil((text.length - from) / CHARACTERS_PER_NODE_GUESS) + 16;
    this.kind = new Uint8Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.escaped = new Uint8Array(capacity);
  }

  parse(): JsonDoc {
    const text = this.text;
    /** Node indices of the open containers. */
    const open: number[] = [];
    for (;;) {
      // Read one value; a non-empty container opens and loops back for its first value.
      const c = this.skipWhitespace();
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        const node = this.add(c === 0x7b ? OBJECT : ARRAY, this.i);
        this.i++;
        if (this.skipWhitespace() === (c === 0x7b ? 0x7d : 0x5d)) {
          this.i++;
          this.end[node] = this.size;
        } else {
          open.push(node);
          if (c === 0x7b) this.readKey();
          continue;
        }
      } else {
        this.readScalar(c);
      }
      // A value is complete: read separators and close as many containers as the input closes.
      for (;;) {
        const top = open.at(-1);
        if (top === undefined) {
          this.skipWhitespace();
          if (this.i < text.length) this.fail("Unexpected data after the JSON value");
          return {
            text,
            size: this.size,
            kind: this.kind.subarray(0, this.size),
            start: this.start.subarray(0, this.size),
            end: this.end.subarray(0, this.size),
            escaped: this.escaped.subarray(0, this.size),
          };
        }
        const isObject = this.kind[top] === OBJECT;
        const d = this.skipWhitespace();
        if (d === 0x2c /* , */) {
          this.i++;
          if (isObject) this.readKey();
          break;
        }
        if (d !== (isObject ? 0x7d : 0x5d))
          this.fail(isObject ? "Expected ',' or '}'" : "Expected ',' or ']'");
        this.i++;
        open.pop();
        this.end[top] = this.size;
      }
    }
  }

  private add(kind: number, start: number): number {
    if (this.size === this.kind.length) this.grow();
    const node = this.size++;
    this.kind[node] = kind;
    this.start[node] = start;
    return node;
  }

  private grow(): void {
    const capacity = this.kind.length * 2;
    this.kind = copiedInto(new Uint8Array(capacity), this.kind);
    this.start = copiedInto(new Int32Array(capacity), this.start);
    this.end = copiedInto(new Int32Array(capacity), this.end);
    this.escaped = copiedInto(new Uint8Array(capacity), this.escaped);
  }

  private readKey(): void {
    if (this.skipWhitespace() !== 0x22 /* " */) this.fail("Expected a member name in double quotes");
    this.readString(KEY);
    if (this.skipWhitespace() !== 0x3a /* : */) this.fail("Expected ':' after the member name");
    this.i++;
  }

  private readScalar(c: number): void {
    if (c === 0x22 /* " */) {
      this.readString(STRING);
      return;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      this.readNumber();
      return;
    }
    if (c === 0x74 /* t */ && this.readLiteral("true", TRUE)) return;
    if (c === 0x66 /* f */ && this.readLiteral("false", FALSE)) return;
    if (c === 0x6e /* n */ && this.readLiteral("null", NULL)) return;
    if (Number.isNaN(c)) this.fail("Unexpected end of JSON");
    this.fail("Unexpected character");
  }

  private readLiteral(literal: string, kind: number): boolean {
    if (!this.text.startsWith(literal, this.i)) return false;
    const node = this.add(kind, this.i);
    this.i += literal.length;
    this.end[node] = this.i;
    return true;
  }

  private readString(kind: number): void {
    const node = this.add(kind, this.i);
    // Strings hold most of a body's characters. A string with no backslash or control character
    // before its closing quote needs no character-by-character walk: three native searches tell.
    const close = this.text.indexOf('"', this.i + 1);
    const plain =
      close !== -1 &&
      this.backslashes.nextFrom(this.i) > close &&
      this.controlCharacters.nextFrom(this.i) > close;
    if (plain) this.i = close + 1;
    else this.walkString(node);
    this.end[node] = this.i;
  }

  /** Reads the string at the cursor escape by escape, failing at the first invalid character. */
  private walkString(node: number): void {
    const text = this.text;
    this.i++;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail("Unterminated string");
      if (c === 0x22) break;
      if (c < 0x20) this.fail("Control character in a string (it must be escaped)");
      if (c === 0x5c /* \ */) {
        this.escaped[node] = 1;
        this.skipEscape();
        continue;
      }
      this.i++;
    }
    this.i++;
  }

  /** Steps over the backslash escape at the cursor. */
  private skipEscape(): void {
    const text = this.text;
    const e = text.charCodeAt(this.i + 1);
    if (e === 0x75 /* u */) {
      for (let k = 2; k < 6; k++) {
        if (!isHexDigit(text.charCodeAt(this.i + k))) this.fail("Bad \\u escape in a string");
      }
      this.i += 6;
      return;
    }
    if (!SIMPLE_ESCAPES.has(e)) this.fail("Bad escape in a string");
    this.i += 2;
  }

  private readNumber(): void {
    const text = this.text;
    const node = this.add(NUMBER, this.i);
    if (text.charCodeAt(this.i) === 0x2d) this.i++;
    const first = text.charCodeAt(this.i);
    if (first === 0x30) this.i++;
    else if (first >= 0x31 && first <= 0x39) this.skipDigits();
    else this.fail("Expected a digit");
    if (text.charCodeAt(this.i) === 0x2e /* . */) {
      this.i++;
      if (!isDigit(text.charCodeAt(this.i))) this.fail("Expected a digit after the decimal point");
      this.skipDigits();
    }
    const e = text.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = text.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (!isDigit(text.charCodeAt(this.i))) this.fail("Expected a digit in the exponent");
      this.skipDigits();
    }
    this.end[node] = this.i;
  }

  private skipDigits(): void {
    while (isDigit(this.text.charCodeAt(this.i))) this.i++;
  }

  /** Moves the cursor past whitespace; returns the code of the character there (NaN at the end). */
  private skipWhitespace(): number {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return c;
    }
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(`${message} at ${describePosition(this.text, this.i)}`);
  }
}

function copiedInto<T extends Uint8Array | Int32Array>(larger: T, from: T): T {
  larger.set(from);
  return larger;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job.
const CONTROL_CHARACTER = /[\u0000-\u001f]/g;

/**
 * The first match at or after a position, for positions that only grow: a search runs again only
 * once the position has passed the last match, so one parse searches the text once in all.
 */
class ForwardSearch {
  private readonly search: (position: number) => number;
  /** The last match found, or Infinity once there is none further. */
  private found = -1;

  constructor(search: (position: number) => number) {
    this.search = search;
  }

  nextFrom(position: number): number {
    if (this.found < position) {
      const next = this.search(position);
      this.found = next === -1 ? Number.POSITIVE_INFINITY : next;
    }
    return this.found;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** "line 3, column 14 (character 52)", counted in UTF-16 units. */
function describePosition(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  let newline = text.indexOf("\n");
  while (newline !== -1 && newline < index) {
    line++;
    lineStart = newline + 1;
    newline = text.indexOf("\n", lineStart);
  }
  return `line ${line}, column ${index - lineStart + 1} (character ${index + 1})`;
}

/** True for objects and arrays. */
export function isContainer(doc: JsonDoc, node: number): boolean {
  const kind = doc.kind[node];
  return kind === OBJECT || kind === ARRAY;
}

/** The index of the first node after `node` and everything inside it. */
export function after(doc: JsonDoc, node: number): number {
  return isContainer(doc, node) ? (doc.end[node] ?? node + 1) : node + 1;
}

/** A scalar or key exactly as written: `12345678901234567890` stays that, `"caf\u00e9"` keeps its escape. */
export function rawText(doc: JsonDoc, node: number): string {
  return doc.text.slice(doc.start[node], doc.end[node]);
}

/** The decoded value of a string or key node. */
export function stringValue(doc: JsonDoc, node: number): string {
  // The token was validated while parsing, and JSON.parse of one string literal does not recurse.
  if (doc.escaped[node] === 1) return JSON.parse(rawText(doc, node)) as string;
  return doc.text.slice((doc.start[node] ?? 0) + 1, (doc.end[node] ?? 0) - 1);
}

/** True when key node `node` is the name `name`, without slicing when the key has no escapes. */
export function keyIs(doc: JsonDoc, node: number, name: string): boolean {
  if (doc.escaped[node] === 1) return stringValue(doc, node) === name;
  const start = doc.start[node] ?? 0;
  return (doc.end[node] ?? 0) - start - 2 === name.length && doc.text.startsWith(name, start + 1);
}
