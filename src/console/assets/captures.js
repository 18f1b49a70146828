// @ts-check
/**
 * The inspector page's "Catch a real delivery": creates a capture with the user's key, shows its
 * address, lists the requests it catches, and inspects one with one click by putting its raw text
 * in the form's request box and running the form (the same charged call as a pasted request).
 * The capture is remembered in this tab (session storage), as the key is, so a reload keeps it.
 */
import { callApi, hideProblem, showProblem } from "./api.js";
import { byId, h, table } from "./dom.js";
import { currentKey } from "./key.js";

const STORAGE_KEY = "toolrun.capture";
/**
 * The API has no push channel, so the list is polled. Each poll is a free read that takes a
 * rate-limit slot: every 5 s is 12 of the minute's 60 on the free plan, quick enough for a test
 * delivery. Hidden tabs do not poll.
 */
const POLL_MS = 5000;

/** @typedef {{ id: string, url: string, expires_at: string }} Capture */
/** @typedef {{ id: string, received_at: string, method: string, size: number, raw: string }} Received */

/** @returns {Capture | null} */
function stored() {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null");
    if (value && typeof value.id === "string" && Date.parse(value.expires_at) > Date.now()) return value;
  } catch {
    // Not ours: start again.
  }
  sessionStorage.removeItem(STORAGE_KEY);
  return null;
}

/** "14:03:27" in the user's time zone. @param {string} at */
function clock(at) {
  return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** @param {number} bytes */
function size(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Wires the section; returns what to do when the key changes (look again, with the new key). */
export function setupCaptures() {
  const none = () => {};
  if (!document.getElementById("catch")) return none;
  const form = byId("tool-form", HTMLFormElement);
  const parts = byId("request-parts", HTMLFieldSetElement);
  const field = form.elements.namedItem(parts.dataset.field ?? "");
  if (!(field instanceof HTMLTextAreaElement)) return none;
  const payload = field;
  const start = byId("catch-start", HTMLButtonElement);
  const live = byId("catch-live", HTMLElement);
  const url = byId("catch-url", HTMLInputElement);
  const expiry = byId("catch-expiry", HTMLElement);
  const status = byId("catch-status", HTMLElement);
  const empty = byId("catch-empty", HTMLElement);
  const list = byId("catch-requests", HTMLElement);
  const problemBox = byId("catch-problem", HTMLElement);
  /** @type {Capture | null} */
  let capture = stored();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** The newest request shown: undefined before the first list, null while there is none. */
  /** @type {string | null | undefined} */
  let newest;

  function show() {
    start.hidden = capture !== null;
    live.hidden = capture === null;
    if (capture === null) return;
    url.value = capture.url;
    expiry.textContent = `It works until ${new Date(capture.expires_at).toLocaleString()}.`;
  }

  /** @param {string} message */
  function ended(message) {
    sessionStorage.removeItem(STORAGE_KEY);
    capture = null;
    newest = undefined;
    list.replaceChildren();
    empty.hidden = false;
    status.textContent = message;
    show();
  }

  /** @param {Received} request */
  function inspect(request) {
    // The raw box, not the body-and-headers one: the request goes in exactly as received.
    const raw = parts.querySelector('input[name="request-mode"][value="raw"]');
    if (raw instanceof HTMLInputElement && !raw.checked) {
      raw.checked = true;
      parts.dispatchEvent(new Event("change", { bubbles: true }));
    }
    payload.value = request.raw;
    payload.dataset.exact = request.raw;
    form.requestSubmit();
  }

  /** @param {Received[]} requests */
  function render(requests) {
    empty.hidden = requests.length > 0;
    const rows = requests.map((request) => [
      h("time", { datetime: request.received_at }, clock(request.received_at)),
      request.method,
      size(request.size),
      (() => {
        const button = h(
          "button",
          {
            type: "button",
            class: "secondary",
            "aria-label": `Inspect the ${request.method} request received at ${clock(request.received_at)}`,
          },
          "Inspect",
        );
        button.addEventListener("click", () => inspect(request));
        return button;
      })(),
    ]);
    list.replaceChildren(
      requests.length > 0
        ? table({ labelledBy: "catch-requests-title" }, ["Received", "Method", "Size", "Inspect"], rows)
        : "",
    );
    // Only what arrived since the last list is announced (not what a reload finds).
    if (newest !== undefined) {
      const at = requests.findIndex((request) => request.id === newest);
      const fresh = at === -1 ? requests.length : at;
      if (fresh > 0)
        status.textContent = fresh === 1 ? "1 new request received." : `${fresh} new requests received.`;
    }
    newest = requests[0]?.id ?? null;
  }

  let polling = false;
  /** One chain of polls at a time: a call while one is on its way waits for that one's timer. */
  async function poll() {
    if (polling) return;
    clearTimeout(timer);
    const key = currentKey();
    if (capture === null || key === null) return;
    if (document.visibilityState === "visible") {
      polling = true;
      const outcome = await callApi("GET", `/v1/captures/${capture.id}/requests?limit=20`, key);
      polling = false;
      if (capture === null) return;
      if (outcome.ok) {
        render(/** @type {Received[]} */ (outcome.data.requests));
      } else if (outcome.problem.code === "capture_not_found") {
        ended("The capture has ended (it expired or was deleted). Create a new address to catch more.");
        return;
      } else if (outcome.problem.code !== "rate_limited") {
        showProblem(problemBox, outcome.problem);
      }
    }
    timer = setTimeout(poll, POLL_MS);
  }

  start.addEventListener("click", async () => {
    hideProblem(problemBox);
    const key = currentKey();
    if (key === null) {
      showProblem(problemBox, {
        code: "invalid_api_key",
        title: "Paste your API key first",
        detail: "The capture belongs to your key's account. Paste the key in the API key box at the top.",
      });
      return;
    }
    start.disabled = true;
    const outcome = await callApi("POST", "/v1/captures", key);
    start.disabled = false;
    if (!outcome.ok) {
      showProblem(problemBox, outcome.problem);
      return;
    }
    capture = /** @type {Capture} */ (/** @type {unknown} */ (outcome.data));
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(capture));
    newest = null;
    show();
    status.textContent = "Capture address created. Waiting for requests…";
    url.focus();
    url.select();
    void poll();
  });

  byId("catch-copy", HTMLButtonElement).addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url.value);
      status.textContent = "Copied the capture address.";
    } catch {
      url.focus();
      url.select();
      status.textContent = "The browser did not allow copying; the address is selected to copy.";
    }
  });

  byId("catch-stop", HTMLButtonElement).addEventListener("click", async () => {
    const key = currentKey();
    if (capture === null || key === null) return;
    const outcome = await callApi("DELETE", `/v1/captures/${capture.id}`, key);
    if (!outcome.ok && outcome.problem.code !== "capture_not_found") {
      showProblem(problemBox, outcome.problem);
      return;
    }
    ended("The capture is deleted: its address no longer takes requests.");
    start.focus();
  });

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void poll();
  });
  show();
  void poll();
  return () => void poll();
}
