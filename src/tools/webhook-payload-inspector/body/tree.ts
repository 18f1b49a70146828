/**
 * Reading a parsed JSON tape (./json.ts): nesting depth and key count, lossless two-space
 * pretty-printing under an output budget, and looking a value up by a dotted path. The tape is in
 * document order, so each walk is one scan over node indices with a small stack of open
 * containers: hostile nesting costs memory in proportion to the input, never call-stack frames.
 */
import {
  ARRAY,
  after,
  FALSE,
  type JsonDoc,
  KEY,
  keyIs,
  NULL,
  NUMBER,
  OBJECT,
  rawText,
  STRING,
  stringValue,
  TRUE,
} from "./json.ts";

/** A node of a parsed document. */
export interface JsonRef {
  readonly doc: JsonDoc;
  readonly node: number;
}

export interface JsonMetrics {
  /** A scalar is 0; each enclosing object or array adds 1: `{}` is 1, `{"a":{"b":1}}` is 2. */
  readonly depth: number;
  /** Member names of every object at every level, inside arrays too; array elements are not keys. */
  readonly keys: number;
}

export function measure(doc: JsonDoc, root = 0): JsonMetrics {
  const stop = after(doc, root);
  const ends: number[] = [];
  let depth = 0;
  let keys = 0;
  for (let i = root; i < stop; i++) {
    while (ends.length > 0 && (ends.at(-1) ?? 0) <= i) ends.pop();
    const kind = doc.kind[i];
    if (kind === KEY) {
      keys++;
    } else if (kind === OBJECT || kind === ARRAY) {
      ends.push(doc.end[i] ?? i + 1);
      depth = Math.max(depth, ends.length);
    }
  }
  return { depth, keys };
}

/**
 * The value as `JSON.stringify(value, null, 2)` lays it out, but with every number, string and
 * member name exactly as written (escapes included), repeated names kept and member order untouched.
 * Returns `null` when the result would exceed `budget` characters: pretty-printing grows with the
 * square of the nesting depth, so a deeply nested body is shown as sent instead.
 */
export function prettyPrint(doc: JsonDoc, budget: number, root = 0): string | null {
  const stop = after(doc, root);
  const lines = new IndentedLines();
  /** The containers around node `i`, innermost last. */
  const open: number[] = [];
  // Appending to a string builds a rope, flattened once when read: cheaper than an array of pieces.
  let out = "";
  for (let i = root; i <= stop; i++) {
    while (open.length > 0 && doc.end[open.at(-1) ?? 0] === i) {
      const closed = open.pop() ?? 0;
      // Budget checks come before a line break is built, so deep nesting gives up before allocating.
      if (out.length + 2 + 2 * open.length > budget) return null;
      out += lines.newLine(open.length);
      out += doc.kind[closed] === OBJECT ? "}" : "]";
    }
    if (i === stop) break;
    const kind = doc.kind[i];
    const parent = open.at(-1) ?? -1;
    // A member name, or an array element, starts a line; a member's value follows its name.
    if (kind === KEY || (parent >= 0 && doc.kind[parent] === ARRAY)) {
      if (out.length + 2 + 2 * open.length > budget) return null;
      out += i === parent + 1 ? lines.newLine(open.length) : lines.commaNewLine(open.length);
    }
    if (kind === KEY) {
      out += rawText(doc, i);
      out += ": ";
    } else if (kind === OBJECT || kind === ARRAY) {
      const empty = doc.end[i] === i + 1;
      out += kind === OBJECT ? (empty ? "{}" : "{") : empty ? "[]" : "[";
      if (!empty) open.push(i);
    } else {
      out += rawText(doc, i);
    }
    if (out.length > budget) return null;
  }
  return out;
}

/** Line breaks followed by the two-space indentation of a depth, each built once. */
class IndentedLines {
  private readonly plain: string[] = ["\n"];
  private readonly afterComma: string[] = [",\n"];

  /** Starts the first line of a container, or the line that closes it. */
  newLine(depth: number): string {
    this.extendTo(depth);
    return this.plain[depth] ?? "";
  }

  /** Ends a line with a comma and starts the next. */
  commaNewLine(depth: number): string {
    this.extendTo(depth);
    return this.afterComma[depth] ?? "";
  }

  private extendTo(depth: number): void {
    for (let d = this.plain.length; d <= depth; d++) {
      this.plain.push(`${this.plain[d - 1] ?? ""}  `);
      this.afterComma.push(`${this.afterComma[d - 1] ?? ""}  `);
    }
  }
}

/** Splits `a.b[0].c` into `["a", "b", 0, "c"]`; a bracket holding anything but digits stays part of the name. */
export function parsePath(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (const part of path.split(".")) {
    const match = /^(.*?)((?:\[\d+\])*)$/.exec(part);
    const name = match?.[1] ?? part;
    if (name !== "") segments.push(name);
    for (const index of (match?.[2] ?? "").matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** Member indexes of large objects, built on first lookup: provider detection asks many questions. */
const memberIndexes = new WeakMap<JsonDoc, Map<number, Map<string, number>>>();

/** The value node of member `key` of object `node` (the last, when repeated), or -1. */
function member(doc: JsonDoc, node: number, key: string): number {
  const stop = doc.end[node] ?? node + 1;
  if (stop - node <= 64) {
    let found = -1;
    for (let j = node + 1; j < stop; j = after(doc, j + 1)) {
      if (keyIs(doc, j, key)) found = j + 1;
    }
    return found;
  }
  let byObject = memberIndexes.get(doc);
  if (byObject === undefined) {
    byObject = new Map();
    memberIndexes.set(doc, byObject);
  }
  let index = byObject.get(node);
  if (index === undefined) {
    index = new Map();
    for (let j = node + 1; j < stop; j = after(doc, j + 1)) index.set(stringValue(doc, j), j + 1);
    byObject.set(node, index);
  }
  return index.get(key) ?? -1;
}

/** The `index`-th element of array `node`, or -1. */
function element(doc: JsonDoc, node: number, index: number): number {
  const stop = doc.end[node] ?? node + 1;
  let child = node + 1;
  for (let k = 0; k < index && child < stop; k++) child = after(doc, child);
  return child < stop ? child : -1;
}

/** The node at `path` below `root`, or null. */
export function lookup(root: JsonRef | null, path: string): JsonRef | null {
  if (root === null) return null;
  const { doc } = root;
  let node = root.node;
  for (const segment of parsePath(path)) {
    const kind = doc.kind[node];
    if (typeof segment === "number") node = kind === ARRAY ? element(doc, node, segment) : -1;
    else node = kind === OBJECT ? member(doc, node, segment) : -1;
    if (node < 0) return null;
  }
  return { doc, node };
}

/** A scalar as a person reads it: a string's value, a number or literal as written; null for containers. */
export function scalarText(ref: JsonRef | null): string | null {
  if (ref === null) return null;
  const kind = ref.doc.kind[ref.node];
  if (kind === STRING) return stringValue(ref.doc, ref.node);
  if (kind === NUMBER || kind === TRUE || kind === FALSE || kind === NULL) return rawText(ref.doc, ref.node);
  return null;
}
