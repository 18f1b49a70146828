// @ts-check
/**
 * The inspector's body-and-headers boxes: joined into the raw request its form sends (headers, a
 * blank line, the body), so a run and the call as curl are those of the raw request. Switching
 * back shows the raw request they make; switching to them splits the raw request at its first
 * blank line.
 */

/**
 * Header lines from the Headers box: `Name: value` lines, or a JSON object (a value that is a list
 * gives one line per item).
 * @param {string} text
 * @returns {string[]}
 */
export function headerLines(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const object = JSON.parse(trimmed);
      if (typeof object === "object" && object !== null && !Array.isArray(object)) {
        return Object.entries(object).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((item) => `${name}: ${item}`),
        );
      }
    } catch {
      // Not JSON after all: read as lines.
    }
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** @param {string} headers @param {string} body */
export function joinRequest(headers, body) {
  const lines = headerLines(headers);
  return lines.length === 0 ? body : `${lines.join("\n")}\n\n${body}`;
}

/** The raw request split at its first blank line; all body when it has none or starts with `{` or `[`. @param {string} raw */
function splitRaw(raw) {
  if (/^\s*[[{]/.test(raw)) return { headers: "", body: raw };
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: raw, body: "" };
  return { headers: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

export function setupRequestParts() {
  const parts = document.getElementById("request-parts");
  const form = document.getElementById("tool-form");
  if (!parts || !(form instanceof HTMLFormElement)) return;
  const raw = form.elements.namedItem(parts.dataset.field ?? "");
  const headers = document.getElementById("request-headers");
  const body = document.getElementById("request-body");
  const boxes = document.getElementById("request-parts-boxes");
  if (!(raw instanceof HTMLTextAreaElement) || !(headers instanceof HTMLTextAreaElement)) return;
  if (!(body instanceof HTMLTextAreaElement) || !boxes) return;
  const rawField = raw.closest(".field");

  const join = () => {
    raw.value = joinRequest(headers.value, body.value);
  };
  const show = () => {
    const mode = parts.querySelector('input[name="request-mode"]:checked');
    const byParts = mode instanceof HTMLInputElement && mode.value === "parts";
    if (byParts) {
      const split = splitRaw(raw.value);
      headers.value = split.headers;
      body.value = split.body;
    }
    boxes.hidden = !byParts;
    if (rawField instanceof HTMLElement) rawField.hidden = byParts;
  };
  parts.addEventListener("change", show);
  headers.addEventListener("input", join);
  body.addEventListener("input", join);
  // An example or a reset fills the raw request: show it as it is.
  form.addEventListener("reset", () => setTimeout(show));
  show();
}
