/**
 * The titles of a tool's output schema, for the page that draws its results: the schema cut down
 * to `title`, `properties` and `items` wherever a title is, so the browser labels each figure, row
 * and section as the tool's author named it (and by its name for people where they did not).
 */
import type { JsonSchema } from "../tools/tool.ts";

export interface OutputTitles {
  readonly title?: string;
  readonly properties?: Readonly<Record<string, OutputTitles>>;
  readonly items?: OutputTitles;
}

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The titles below this schema, or null where there are none (nothing to send). */
export function outputTitles(schema: JsonSchema | undefined): OutputTitles | null {
  if (schema === undefined) return null;
  const properties: Record<string, OutputTitles> = {};
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const titles = isSchema(property) ? outputTitles(property) : null;
      if (titles !== null) properties[name] = titles;
    }
  }
  const items = isSchema(schema.items) ? outputTitles(schema.items) : null;
  const titles: { title?: string; properties?: Record<string, OutputTitles>; items?: OutputTitles } = {};
  if (typeof schema.title === "string") titles.title = schema.title;
  if (Object.keys(properties).length > 0) titles.properties = properties;
  if (items !== null) titles.items = items;
  return Object.keys(titles).length > 0 ? titles : null;
}
