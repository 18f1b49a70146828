// @ts-check
/**
 * Names for people, shared by the pages the server renders (a field's label where its schema has
 * no title) and by the results the browser draws (a column, a property).
 */

/** Words a person reads in capitals. */
const ACRONYMS = new Set(["api", "http", "id", "json", "url", "utc", "xml"]);

/** "timestampsFound", "raw-value" and "utc" as "Timestamps found", "Raw value" and "UTC". @param {string} name */
export function humanize(name) {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[-_]+/g, " ")
    .trim()
    .toLowerCase()
    .split(" ")
    .map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word))
    .join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
