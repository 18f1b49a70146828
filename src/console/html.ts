/**
 * A tagged template for HTML that escapes every interpolated value unless it is already markup.
 * Hand-written because the console renders a few small pages and a template engine would be the
 * largest dependency of the project for that.
 */

export class Markup {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

type Part = Markup | string | number | boolean | null | undefined | readonly Part[];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function render(part: Part): string {
  if (part instanceof Markup) return part.text;
  if (Array.isArray(part)) return part.map(render).join("");
  if (part === null || part === undefined || part === false) return "";
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: readonly Part[]): Markup {
  let out = strings[0] ?? "";
  parts.forEach((part, i) => {
    out += render(part) + (strings[i + 1] ?? "");
  });
  return new Markup(out);
}

/** Text that marks literal parts with backticks, as in Markdown: each span becomes code, the rest is escaped. */
export function withCode(text: string): Markup {
  return new Markup(escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>"));
}
