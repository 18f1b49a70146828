// @ts-check
/**
 * The signed-in member's account page: a key made for this browser arrives in the page once
 * (#browser-key's data-key) and is kept where the tool pages read their key, then taken out of
 * the page.
 */
import { storeKey } from "./key.js";

export function setupMemberPage() {
  const made = document.getElementById("browser-key");
  const key = made?.dataset.key;
  if (!made || !key) return;
  storeKey(key);
  delete made.dataset.key;
}
