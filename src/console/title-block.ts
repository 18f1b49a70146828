/**
 * The title block of a calculation sheet: the boxes an engineer fills (project, job number, the
 * wall's reference, who made and who checked the calculation, the date, the revision), printed at
 * the head of the sheet and kept in the page's address (`?project=…&job=…`), so the same link
 * makes the same sheet again. Only the tools whose sheet a checker signs have one.
 */
import { html, type Markup } from "./html.ts";

export interface TitleBlockField {
  /** The query parameter it is kept in. */
  readonly name: string;
  readonly label: string;
  readonly type: "text" | "date";
  readonly maxLength: number;
}

const field = (name: string, label: string, maxLength = 80, type: "text" | "date" = "text") => ({
  name,
  label,
  type,
  maxLength,
});

const TITLE_BLOCKS: Readonly<Record<string, readonly TitleBlockField[]>> = {
  "retaining-wall-pressure-calculator": [
    field("project", "Project", 120),
    field("job", "Job number", 40),
    field("wall", "Wall reference", 60),
    field("by", "By", 40),
    field("checked", "Checked", 40),
    field("date", "Date", 10, "date"),
    field("rev", "Revision", 10),
  ],
};

export function titleBlockOf(slug: string): readonly TitleBlockField[] | null {
  return TITLE_BLOCKS[slug] ?? null;
}

/** The boxes on the page; not part of the tool's form, so never sent with a run. */
export function titleBlockForm(fields: readonly TitleBlockField[]): Markup {
  return html`<fieldset id="title-block" class="title-block group">
<legend>Title block</legend>
<p class="help" id="title-block-help">Printed at the head of the sheet and kept in this page's address, so the link makes the same sheet again.</p>
${fields.map(
  (f) => html`<div class="field field-text">
  <div class="label-row"><label for="sheet-${f.name}">${f.label}</label></div>
  <input type="${f.type}" id="sheet-${f.name}" name="${f.name}" maxlength="${f.maxLength}" spellcheck="false" autocomplete="off" aria-describedby="title-block-help">
</div>`,
)}
</fieldset>`;
}

/** Its printed form at the head of the sheet, filled by the page's script as the boxes change. */
export function titleBlockSheet(fields: readonly TitleBlockField[]): Markup {
  return html`<section id="title-block-sheet" class="title-block-sheet print-only" aria-label="Title block">
${fields.map(
  (f) =>
    html`<div class="title-block-cell title-block-${f.name}"><span class="title-block-label">${f.label}</span><span class="title-block-value" data-for="${f.name}"></span></div>`,
)}
</section>`;
}
