// @ts-check
/**
 * JSON text as DOM nodes, each key, string, number and literal in a span of its kind, so a body is
 * easy to read. Written by hand because only JSON is highlighted, which takes one regular
 * expression over text already known to parse; a highlighting library would outweigh the console.
 * Every token goes in as a text node: nothing in the body can become markup.
 */
import { h } from "./dom.js";

/** Longer texts are shown plain: tens of thousands of spans would slow the page for little gain. */
const MAX_HIGHLIGHTED = 200_000;

// In valid JSON, outside strings there are only numbers, literals, punctuation and white space, and
// a string is a key when a colon follows it; matching strings whole keeps their insides untouched.
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/**
 * @param {string} text
 * @returns {(string | HTMLElement)[]} the text itself when it is not JSON
 */
export function jsonNodes(text) {
  if (text.length > MAX_HIGHLIGHTED || !isJson(text)) return [text];
  /** @type {(string | HTMLElement)[]} */
  const nodes = [];
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [whole, string, colon, number, literal] = match;
    if (match.index > at) nodes.push(text.slice(at, match.index));
    if (string !== undefined) {
      nodes.push(h("span", { class: colon === undefined ? "j-string" : "j-key" }, string));
      if (colon !== undefined) nodes.push(colon);
    } else if (number !== undefined) {
      nodes.push(h("span", { class: "j-number" }, number));
    } else if (literal !== undefined) {
      nodes.push(h("span", { class: "j-literal" }, literal));
    }
    at = match.index + whole.length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

/** @param {string} text */
function isJson(text) {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
