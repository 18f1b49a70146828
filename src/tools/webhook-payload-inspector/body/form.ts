/**
 * application/x-www-form-urlencoded bodies: recognising one by its characters and decoding its
 * fields. Decoding follows the WHATWG URL rules ("+" is a space, then %XX bytes read as UTF-8) but
 * never fails: a bad escape stays as written and bytes that are not UTF-8 become U+FFFD, because a
 * debugging tool must show what arrived rather than refuse it.
 */
import { Buffer } from "node:buffer";

export interface FormField {
  readonly name: string;
  readonly value: string;
}

/** Drops one final line break: pasted bodies often end with one that was never part of the form. */
function withoutFinalLineBreak(body: string): string {
  if (body.endsWith("\r\n")) return body.slice(0, -2);
  if (body.endsWith("\n")) return body.slice(0, -1);
  return body;
}

/**
 * True for a body made only of the characters a form encoder emits (letters, digits, `%`, `+`,
 * `=`, `&` and the URL punctuation `-._~!*'(),;:@/?[]$`) that holds at least one `=`.
 */
export function looksLikeForm(body: string): boolean {
  const text = withoutFinalLineBreak(body);
  let sawEquals = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d) sawEquals = true;
    else if (!isFormChar(c)) return false;
  }
  return sawEquals;
}

function isFormChar(c: number): boolean {
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return true;
  return "%+&-._~!*'(),;:@/?[]$".includes(String.fromCharCode(c));
}

/** The fields in order; repeated names stay separate. Empty pieces (`a=1&&b=2`) are skipped. */
export function decodeForm(body: string): FormField[] {
  const fields: FormField[] = [];
  for (const piece of withoutFinalLineBreak(body).split("&")) {
    if (piece === "") continue;
    const equals = piece.indexOf("=");
    const name = equals === -1 ? piece : piece.slice(0, equals);
    const value = equals === -1 ? "" : piece.slice(equals + 1);
    fields.push({ name: decodeComponent(name), value: decodeComponent(value) });
  }
  return fields;
}

/** `+` to space, then percent-decoding as UTF-8, tolerating bad escapes. */
export function decodeComponent(text: string): string {
  if (!text.includes("%") && !text.includes("+")) return text;
  // Each escape shrinks three characters to one byte, so the UTF-8 length of the text is enough room.
  const out = Buffer.allocUnsafe(Buffer.byteLength(text, "utf8"));
  let length = 0;
  let runStart = 0;
  const flush = (end: number) => {
    if (end > runStart) length += out.write(text.slice(runStart, end), length, "utf8");
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2b) {
      flush(i);
      out[length++] = 0x20;
      runStart = i + 1;
    } else if (c === 0x25) {
      const high = hexValue(text.charCodeAt(i + 1));
      const low = hexValue(text.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        flush(i);
        out[length++] = high * 16 + low;
        i += 2;
        runStart = i + 1;
      }
    }
  }
  flush(text.length);
  return out.toString("utf8", 0, length);
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
