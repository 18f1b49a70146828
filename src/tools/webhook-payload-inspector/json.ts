/**
 * A linear-time, non-recursive JSON parser (RFC 8259) that keeps what `JSON.parse` throws away:
 * the source text of every number and string, member order, and repeated member names.
 *
 * Why not `JSON.parse`: its reviver recurses (a 1 MiB `[[[[…]]]]` overflows the stack), it reorders
 * integer-like keys, it keeps only the last of repeated keys, and a 19-digit id loses digits. The
 * inspector shows the body as it was sent, so it parses into this small tree instead. The parser
 * uses an explicit stack and looks at each character a bounded number of times.
 */

export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonLiteral;

export interface JsonEntry {
  /** The decoded member name. */
  readonly key: string;
  /** The member name as written, quotes and escapes included. */
  readonly rawKey: string;
  readonly value: JsonNode;
}

export interface JsonObject {
  readonly kind: "object";
  readonly entries: JsonEntry[];
}

export interface JsonArray {
  readonly kind: "array";
  readonly items: JsonNode[];
}

export interface JsonString {
  readonly kind: "string";
  /** The string token as written, quotes and escapes included. */
  readonly raw: string;
  readonly value: string;
}

export interface JsonNumber {
  readonly kind: "number";
  /** The number as written: `12345678901234567890` stays exactly that. */
  readonly raw: string;
}

export interface JsonLiteral {
  readonly kind: "literal";
  readonly raw: "true" | "false" | "null";
}

export type JsonParseResult =
  | { readonly ok: true; readonly value: JsonNode }
  | { readonly ok: false; readonly error: string };

interface Frame {
  readonly container: JsonObject | JsonArray;
  key: string;
  rawKey: string;
}

class JsonSyntaxError extends Error {}

const LITERALS = ["true", "false", "null"] as const;
/** The characters allowed after a backslash besides `u`: " \ / b f n r t. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** Parses `text` from `start` to its end; whitespace around the value is allowed, nothing else. */
export function parseJson(text: string, start = 0): JsonParseResult {
  const parser = new Parser(text, start);
  try {
    return { ok: true, value: parser.parseDocument() };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

class Parser {
  private readonly text: string;
  private i: number;

  constructor(text: string, start: number) {
    this.text = text;
    this.i = start;
  }

  parseDocument(): JsonNode {
    const stack: Frame[] = [];
    for (;;) {
      // Read one value; a non-empty container opens a frame and loops back for its first value.
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.i);
      let value: JsonNode;
      if (c === 0x7b /* { */) {
        this.i++;
        const node: JsonObject = { kind: "object", entries: [] };
        this.skipWhitespace();
        if (this.text.charCodeAt(this.i) === 0x7d /* } */) {
          this.i++;
          value = node;
        } else {
          const frame: Frame = { container: node, key: "", rawKey: "" };
          this.readKey(frame);
          stack.push(frame);
          continue;
        }
      } else if (c === 0x5b /* [ */) {
        this.i++;
        const node: JsonArray = { kind: "array", items: [] };
        this.skipWhitespace();
        if (this.text.charCodeAt(this.i) === 0x5d /* ] */) {
          this.i++;
          value = node;
        } else {
          stack.push({ container: node, key: "", rawKey: "" });
          continue;
        }
      } else {
        value = this.readScalar(c);
      }
      // Attach the finished value, then close as many containers as the input closes.
      for (;;) {
        const top = stack.at(-1);
        if (top === undefined) {
          this.skipWhitespace();
          if (this.i < this.text.length) this.fail("Unexpected data after the JSON value");
          return value;
        }
        if (top.container.kind === "object") {
          top.container.entries.push({ key: top.key, rawKey: top.rawKey, value });
        } else {
          top.container.items.push(value);
        }
        this.skipWhitespace();
        const d = this.text.charCodeAt(this.i);
        if (d === 0x2c /* , */) {
          this.i++;
          if (top.container.kind === "object") this.readKey(top);
          break;
        }
        const closer = top.container.kind === "object" ? 0x7d : 0x5d;
        if (d !== closer) {
          this.fail(top.container.kind === "object" ? "Expected ',' or '}'" : "Expected ',' or ']'");
        }
        this.i++;
        stack.pop();
        value = top.container;
      }
    }
  }

  private readKey(frame: Frame): void {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.i) !== 0x22 /* " */) this.fail("Expected a member name in double quotes");
    const key = this.readString();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.i) !== 0x3a /* : */) this.fail("Expected ':' after the member name");
    this.i++;
    frame.key = key.value;
    frame.rawKey = key.raw;
  }

  private readScalar(c: number): JsonNode {
    if (c === 0x22 /* " */) return this.readString();
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) return this.readNumber();
    for (const literal of LITERALS) {
      if (this.text.startsWith(literal, this.i)) {
        this.i += literal.length;
        return { kind: "literal", raw: literal };
      }
    }
    if (Number.isNaN(c)) this.fail("Unexpected end of JSON");
    return this.fail("Unexpected character");
  }

  private readString(): JsonString {
    const text = this.text;
    const start = this.i;
    let escaped = false;
    this.i++;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail("Unterminated string");
      if (c === 0x22) break;
      if (c < 0x20) this.fail("Control character in a string (it must be escaped)");
      if (c === 0x5c /* \ */) {
        escaped = true;
        const e = text.charCodeAt(this.i + 1);
        if (e === 0x75 /* u */) {
          for (let k = 2; k < 6; k++) {
            if (!isHexDigit(text.charCodeAt(this.i + k))) this.fail("Bad \\u escape in a string");
          }
          this.i += 6;
          continue;
        }
        // " \ / b f n r t
        if (!SIMPLE_ESCAPES.has(e)) this.fail("Bad escape in a string");
        this.i += 2;
        continue;
      }
      this.i++;
    }
    this.i++;
    const raw = text.slice(start, this.i);
    // The token is already validated, and JSON.parse of one string literal does not recurse.
    const value = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    return { kind: "string", raw, value };
  }

  private readNumber(): JsonNumber {
    const text = this.text;
    const start = this.i;
    if (text.charCodeAt(this.i) === 0x2d) this.i++;
    const first = text.charCodeAt(this.i);
    if (first === 0x30) {
      this.i++;
    } else if (first >= 0x31 && first <= 0x39) {
      this.skipDigits();
    } else {
      this.fail("Expected a digit");
    }
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
    return { kind: "number", raw: text.slice(start, this.i) };
  }

  private skipDigits(): void {
    while (isDigit(this.text.charCodeAt(this.i))) this.i++;
  }

  private skipWhitespace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(`${message} at ${describePosition(this.text, this.i)}`);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** "line 3, column 14 (character 52)", counted in UTF-16 units of the body as a person sees lines. */
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
