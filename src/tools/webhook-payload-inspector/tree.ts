/**
 * Reading a parsed JSON tree (./json.ts) without recursion: nesting depth and key count, lossless
 * two-space pretty-printing under an output budget, and looking a value up by a dotted path.
 * Every walk uses an explicit stack, so hostile nesting costs memory in proportion to the input,
 * never call-stack frames.
 */
import type { JsonArray, JsonNode, JsonObject } from "./json.ts";

export interface JsonMetrics {
  /** A scalar is 0; each enclosing object or array adds 1: `{}` is 1, `{"a":{"b":1}}` is 2. */
  readonly depth: number;
  /** Member names of every object at every level, inside arrays too; array elements are not keys. */
  readonly keys: number;
}

export function measure(root: JsonNode): JsonMetrics {
  let depth = 0;
  let keys = 0;
  const nodes: JsonNode[] = [root];
  const levels: number[] = [0];
  for (
    let node = nodes.pop(), level = levels.pop();
    node !== undefined;
    node = nodes.pop(), level = levels.pop()
  ) {
    const here = level ?? 0;
    if (node.kind === "object") {
      depth = Math.max(depth, here + 1);
      keys += node.entries.length;
      for (const entry of node.entries) {
        nodes.push(entry.value);
        levels.push(here + 1);
      }
    } else if (node.kind === "array") {
      depth = Math.max(depth, here + 1);
      for (const item of node.items) {
        nodes.push(item);
        levels.push(here + 1);
      }
    }
  }
  return { depth, keys };
}

interface PrintFrame {
  readonly node: JsonObject | JsonArray;
  readonly indent: string;
  next: number;
}

/**
 * The tree as `JSON.stringify(value, null, 2)` lays it out, but with every number, string and member
 * name exactly as written (escapes included), repeated names kept and member order untouched.
 * Returns `null` when the result would exceed `budget` characters: pretty-printing grows with the
 * square of the nesting depth, so a deeply nested body is shown as sent instead.
 */
export function prettyPrint(root: JsonNode, budget: number): string | null {
  const out: string[] = [];
  let size = 0;
  const stack: PrintFrame[] = [];
  const emit = (piece: string): boolean => {
    out.push(piece);
    size += piece.length;
    return size <= budget;
  };
  const writeValue = (node: JsonNode, indent: string): boolean => {
    if (node.kind === "object" || node.kind === "array") {
      const length = node.kind === "object" ? node.entries.length : node.items.length;
      const brackets = node.kind === "object" ? "{}" : "[]";
      if (length === 0) return emit(brackets);
      stack.push({ node, indent, next: 0 });
      return emit(brackets.charAt(0));
    }
    return emit(node.raw);
  };
  if (!writeValue(root, "")) return null;
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const node = top.node;
    const length = node.kind === "object" ? node.entries.length : node.items.length;
    if (top.next < length) {
      const inner = `${top.indent}  `;
      if (!emit(top.next === 0 ? `\n${inner}` : `,\n${inner}`)) return null;
      let child: JsonNode | undefined;
      if (node.kind === "object") {
        const entry = node.entries[top.next];
        if (entry !== undefined) {
          if (!emit(`${entry.rawKey}: `)) return null;
          child = entry.value;
        }
      } else {
        child = node.items[top.next];
      }
      top.next++;
      if (child !== undefined && !writeValue(child, inner)) return null;
    } else {
      stack.pop();
      if (!emit(`\n${top.indent}${node.kind === "object" ? "}" : "]"}`)) return null;
    }
  }
  return out.join("");
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

/** The value at `path`, or undefined. Of repeated member names the last wins, as in `JSON.parse`. */
export function lookup(root: JsonNode | null, path: string): JsonNode | undefined {
  let node: JsonNode | undefined = root ?? undefined;
  for (const segment of parsePath(path)) {
    if (node === undefined) return undefined;
    if (typeof segment === "number") {
      node = node.kind === "array" ? node.items[segment] : undefined;
    } else if (node.kind === "object") {
      node = node.entries.findLast((entry) => entry.key === segment)?.value;
    } else {
      return undefined;
    }
  }
  return node;
}

/** A scalar as a person reads it: a string's value, a number or literal as written; null for containers. */
export function scalarText(node: JsonNode | undefined): string | null {
  if (node === undefined) return null;
  if (node.kind === "string") return node.value;
  if (node.kind === "number" || node.kind === "literal") return node.raw;
  return null;
}
