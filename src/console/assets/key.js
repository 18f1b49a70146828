// @ts-check
/**
 * The user's API key: pasted once, kept in this tab's session storage, sent as a Bearer token.
 */
import { byId } from "./dom.js";

const STORAGE_KEY = "toolrun.apiKey";

/** @returns {string | null} */
export function currentKey() {
  return sessionStorage.getItem(STORAGE_KEY);
}

/** Keeps a key in this tab for the tool pages. @param {string} key */
export function storeKey(key) {
  sessionStorage.setItem(STORAGE_KEY, key);
}

/** "tr_live_AbCd…": enough to tell keys apart, never the secret. @param {string} key */
function shortForm(key) {
  const cut = key.lastIndexOf("_");
  return `${key.slice(0, cut + 5)}…`;
}

/** Wires the key bar in the page header. @param {() => void} onChange called after a key is set or forgotten */
export function setupKeyBar(onChange) {
  const form = byId("key-form", HTMLFormElement);
  const input = byId("api-key", HTMLInputElement);
  const status = byId("key-status", HTMLElement);
  const forget = byId("key-forget", HTMLButtonElement);

  function show() {
    const key = currentKey();
    form.hidden = key !== null;
    status.hidden = key === null;
    byId("key-prefix", HTMLElement).textContent = key === null ? "" : shortForm(key);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (key === "") {
      input.focus();
      return;
    }
    sessionStorage.setItem(STORAGE_KEY, key);
    input.value = "";
    show();
    forget.focus();
    onChange();
  });
  forget.addEventListener("click", () => {
    sessionStorage.removeItem(STORAGE_KEY);
    show();
    input.focus();
    onChange();
  });
  show();
}
