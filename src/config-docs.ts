/**
 * Renders the variable table of docs/configuration.md from the declarations in config.ts, so the
 * documentation cannot drift from what loadConfig reads. Run it after changing a declaration:
 * `npm run docs:config`. A test (test/unit/docs.test.ts) fails when the committed document
 * differs from what this produces.
 */
import { VARIABLES, type Variable } from "./config.ts";

export const DOC_PATH = "docs/configuration.md";
const START = "<!-- generated:variables:start -->";
const END = "<!-- generated:variables:end -->";

const cell = (text: string) => text.replaceAll("|", "\\|");

export function variableTable(variables: Readonly<Record<string, Variable<unknown>>> = VARIABLES): string {
  return [
    "| variable | default | accepts | meaning |",
    "|---|---|---|---|",
    ...Object.entries(variables).map(
      ([name, variable]) =>
        `| \`${name}\` | ${cell(variable.shown)} | ${cell(variable.accepts)} | ${cell(variable.doc)} |`,
    ),
  ].join("\n");
}

/** The document with its variable table replaced by the current rendering. */
export function regenerate(document: string): string {
  const from = document.indexOf(START);
  const to = document.indexOf(END);
  if (from === -1 || to < from) throw new Error(`${DOC_PATH} lacks the ${START} ... ${END} markers`);
  return `${document.slice(0, from + START.length)}\n${variableTable()}\n${document.slice(to)}`;
}

if (import.meta.main) {
  const { readFileSync, writeFileSync } = await import("node:fs");
  const file = new URL(`../${DOC_PATH}`, import.meta.url);
  const before = readFileSync(file, "utf8");
  const after = regenerate(before);
  writeFileSync(file, after);
  console.log(before === after ? `${DOC_PATH} is up to date.` : `${DOC_PATH} regenerated.`);
}
