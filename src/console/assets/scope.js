// @ts-check
/**
 * What the key in this tab may use: the tools page shows only the tools its catalog lists, and a
 * tool's page says so, instead of the form, when the key may not use that tool. The catalog is
 * the key's own (`GET /v1/tools/list`), so a key limited to some tools sees only those; without a
 * key, or when the catalog cannot be read, every tool shows.
 */
import { callApi } from "./api.js";
import { byId } from "./dom.js";
import { currentKey } from "./key.js";

/** The slugs the key's catalog lists, or null for "show every tool" (no key, or no answer). */
async function slugsOfKey() {
  const key = currentKey();
  if (key === null) return null;
  const outcome = await callApi("GET", "/v1/tools/list", key);
  if (!outcome.ok || !Array.isArray(outcome.data.tools)) return null;
  return new Set(
    outcome.data.tools.flatMap((/** @type {unknown} */ row) =>
      row !== null && typeof row === "object" && "slug" in row && typeof row.slug === "string"
        ? [row.slug]
        : [],
    ),
  );
}

/** The tools page: each card of a tool the key may not use is hidden. */
async function scopeToolsPage() {
  const slugs = await slugsOfKey();
  const cards = [...document.querySelectorAll("li[data-slug]")].filter(
    /** @returns {card is HTMLElement} */ (card) => card instanceof HTMLElement,
  );
  let shown = 0;
  for (const card of cards) {
    card.hidden = slugs !== null && !slugs.has(card.dataset.slug ?? "");
    if (!card.hidden) shown++;
  }
  const note = byId("scope-note", HTMLElement);
  note.hidden = slugs === null || shown === cards.length;
  note.textContent = note.hidden
    ? ""
    : `This API key may use ${shown} of the ${cards.length} tools; only those are shown.`;
}

/** A tool's page: when the key may not use the tool, the page says so and the form goes. */
async function scopeToolPage() {
  const slug = document.body.dataset.slug ?? "";
  const slugs = await slugsOfKey();
  const refused = slugs !== null && !slugs.has(slug);
  byId("scope-refusal", HTMLElement).hidden = !refused;
  byId("tool-layout", HTMLElement).hidden = refused;
}

/** Applies the key's scope to this page; returns what to run again when the key changes. */
export function setupScope() {
  const page = document.body.dataset.page;
  const apply = page === "tools" ? scopeToolsPage : page === "tool" ? scopeToolPage : null;
  if (apply === null) return () => {};
  void apply();
  return () => void apply();
}
