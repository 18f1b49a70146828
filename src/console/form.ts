/**
 * A tool's form, generated from its input schema (JSON Schema 2020-12): each property becomes a
 * labelled control. The title is the label (the name for people where there is none), an enum is
 * a choice, bounds are input constraints, `format`, `pattern` and `maxLength` size a text box, the
 * default is the initial value and the description is the help text; two annotations, `x-group`
 * and `x-unit`, put fields in titled groups and a unit beside a box. A new tool gets its form with
 * no console code.
 */
import { CHOICES_KEYWORD, GROUP_KEYWORD, UNIT_KEYWORD } from "../tools/schema.ts";
import type { JsonSchema } from "../tools/tool.ts";
import { humanize } from "./assets/words.js";
import { html, type Markup, withCode } from "./html.ts";

export type FieldKind =
  | "number"
  | "integer"
  | "choice"
  | "boolean"
  | "date"
  | "text"
  | "multiline"
  | "secret";

/** The unit shown beside a box: always the same, or following a choice field (`units`: metric or imperial). */
export type FieldUnit =
  | { readonly fixed: string }
  | { readonly field: string; readonly byChoice: Readonly<Record<string, string>>; readonly initial: string };

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly help: string | null;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly choices: readonly string[];
  /** The words shown for each choice (`x-choices`), where they differ from the value sent. */
  readonly choiceLabels: Readonly<Record<string, string>>;
  readonly defaultValue: string | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly maxLength: number | null;
  /** A string's `format` (`email`, `uri`, `date-time`...) and `pattern`, which make it one line. */
  readonly format: string | null;
  readonly pattern: string | null;
  /** The title of the group of fields it belongs to (`x-group`). */
  readonly group: string | null;
  readonly unit: FieldUnit | null;
  /** For a write-only field: the shell variable the call as curl reads it from. */
  readonly envName: string | null;
}

/** Strings longer than this, or with no bound, format or pattern, get a multi-line box. */
const SINGLE_LINE_MAX = 200;

/** The widest a one-line box is drawn, in characters; longer values scroll inside it. */
const WIDEST_BOX = 40;

/** A format's box: the browser's input type for it and its width in characters. */
const FORMAT_BOXES: Readonly<Record<string, { readonly type: string; readonly size: number }>> = {
  email: { type: "email", size: 32 },
  "idn-email": { type: "email", size: 32 },
  uri: { type: "url", size: WIDEST_BOX },
  "uri-reference": { type: "text", size: WIDEST_BOX },
  iri: { type: "url", size: WIDEST_BOX },
  "iri-reference": { type: "text", size: WIDEST_BOX },
  // Typed as text: the browser's date-time and time pickers give neither seconds nor an offset.
  "date-time": { type: "text", size: 25 },
  time: { type: "text", size: 14 },
  duration: { type: "text", size: 16 },
  uuid: { type: "text", size: 36 },
  ipv4: { type: "text", size: 15 },
  ipv6: { type: "text", size: WIDEST_BOX },
  hostname: { type: "text", size: 32 },
  "idn-hostname": { type: "text", size: 32 },
};

/** A short example of a format's value, shown in its empty box. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-31T14:30:00Z",
  time: "14:30:00Z",
  duration: "P1DT2H",
};

/**
 * The form's fields in schema order. `slug` names the tool, for the shell variables of write-only
 * fields: the inspector's `secret` is `$WEBHOOK_SECRET`.
 */
export function fieldsOf(schema: JsonSchema, slug = ""): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const initialChoice = (name: string): string | null => {
    const property = properties[name];
    if (property === undefined || !Array.isArray(property.enum)) return null;
    return property.default === undefined ? String(property.enum[0]) : String(property.default);
  };
  return Object.entries(properties).map(([name, property]) => {
    const types = typesOf(property);
    const choices = Array.isArray(property.enum) ? property.enum.map(String) : [];
    const maxLength = numberOr(property.maxLength);
    const format = typeof property.format === "string" ? property.format : null;
    const pattern = typeof property.pattern === "string" ? property.pattern : null;
    const kind = kindOf(property, types, choices, { maxLength, format, pattern });
    return {
      name,
      label: typeof property.title === "string" ? property.title : humanize(name),
      help: typeof property.description === "string" ? property.description : null,
      kind,
      required: required.has(name),
      choices,
      choiceLabels: choiceLabelsOf(property[CHOICES_KEYWORD]),
      defaultValue: property.default === undefined ? null : String(property.default),
      min: numberOr(property.minimum) ?? numberOr(property.exclusiveMinimum),
      max: numberOr(property.maximum) ?? numberOr(property.exclusiveMaximum),
      maxLength,
      format,
      pattern,
      group: typeof property[GROUP_KEYWORD] === "string" ? property[GROUP_KEYWORD] : null,
      unit: unitOf(property[UNIT_KEYWORD], initialChoice),
      envName: kind === "secret" ? envNameOf(slug, name) : null,
    };
  });
}

/** `x-unit`: a string, or `{ "<choice field>": { "<choice>": "<unit>" } }`; anything else is ignored. */
function unitOf(annotation: unknown, initialChoice: (field: string) => string | null): FieldUnit | null {
  if (typeof annotation === "string") return { fixed: annotation };
  if (typeof annotation !== "object" || annotation === null) return null;
  const entries = Object.entries(annotation);
  const [entry] = entries;
  if (entries.length !== 1 || entry === undefined) return null;
  const [field, byChoice] = entry;
  if (typeof byChoice !== "object" || byChoice === null) return null;
  const units = Object.entries(byChoice as Record<string, unknown>);
  if (!units.every(([, unit]) => typeof unit === "string")) return null;
  const choice = initialChoice(field);
  const initial = choice === null ? undefined : (byChoice as Record<string, string>)[choice];
  return initial === undefined ? null : { field, byChoice: byChoice as Record<string, string>, initial };
}

/** `x-choices`: the words for each value; anything but strings is ignored. */
function choiceLabelsOf(annotation: unknown): Record<string, string> {
  if (typeof annotation !== "object" || annotation === null) return {};
  return Object.fromEntries(
    Object.entries(annotation).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** `WEBHOOK_SECRET` for the field `secret` of `webhook-payload-inspector`: the slug's first word, then the field. */
function envNameOf(slug: string, name: string): string {
  const word = slug.split("-")[0] ?? "";
  const snake = (text: string) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .toUpperCase();
  return [word, name].filter(Boolean).map(snake).join("_");
}

/**
 * The controls in schema order; consecutive fields of the same `x-group` go in one fieldset whose
 * legend is the group's title, fields without one stand alone.
 */
export function renderFields(fields: readonly FormField[]): Markup[] {
  const runs: { group: string | null; fields: FormField[] }[] = [];
  for (const field of fields) {
    const last = runs.at(-1);
    if (last !== undefined && field.group !== null && last.group === field.group) last.fields.push(field);
    else runs.push({ group: field.group, fields: [field] });
  }
  return runs.map((run) =>
    run.group === null
      ? html`${run.fields.map(renderField)}`
      : html`<fieldset class="group">
<legend>${run.group}</legend>
${run.fields.map(renderField)}
</fieldset>`,
  );
}

function typesOf(property: JsonSchema): string[] {
  const { type } = property;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.map(String) : [];
}

function kindOf(
  property: JsonSchema,
  types: readonly string[],
  choices: readonly string[],
  text: { maxLength: number | null; format: string | null; pattern: string | null },
): FieldKind {
  if (choices.length > 0) return "choice";
  if (types.includes("integer")) return "integer";
  // A number that may also be sent as a numeric string is still a number to a person.
  if (types.includes("number")) return "number";
  if (types.includes("boolean")) return "boolean";
  if (property.writeOnly === true) return "secret";
  if (text.format === "date") return "date";
  // A format or a pattern describes one value (a date-time, a symbol), never lines of text.
  if (text.format !== null || text.pattern !== null) return "text";
  return text.maxLength !== null && text.maxLength <= SINGLE_LINE_MAX ? "text" : "multiline";
}

/** A one-line box's width in characters: its format's, else its `maxLength`'s, at most WIDEST_BOX. */
function boxSize(field: FormField): number | null {
  const byFormat = field.format === null ? undefined : FORMAT_BOXES[field.format]?.size;
  if (byFormat !== undefined) return byFormat;
  if (field.maxLength !== null) return Math.max(4, Math.min(field.maxLength, WIDEST_BOX));
  return field.pattern === null ? null : 24;
}

/** A multi-line box's rows: a few for a bounded text, twelve for text of any length (a raw request). */
function rowsOf(maxLength: number | null): number {
  return maxLength === null ? 12 : Math.min(12, Math.max(3, Math.ceil(maxLength / 200)));
}

function numberOr(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The control, its help and the slot its error message goes in, tied together for screen readers. */
export function renderField(field: FormField): Markup {
  const id = `field-${field.name}`;
  const unit =
    field.kind === "number" || field.kind === "integer" || field.kind === "text" ? field.unit : null;
  const describedBy = [
    unit ? `unit-${field.name}` : "",
    field.help ? `help-${field.name}` : "",
    `error-${field.name}`,
  ]
    .filter(Boolean)
    .join(" ");
  const common = html`id="${id}" name="${field.name}" data-kind="${field.kind}" aria-describedby="${describedBy}"${field.required ? html` required aria-required="true"` : ""}${field.envName ? html` data-env="${field.envName}"` : ""}`;
  return html`<div class="field field-${field.kind}">
  <div class="label-row"><label for="${id}">${field.label}</label>${field.required ? html` <span class="required" aria-hidden="true">required</span>` : ""}</div>
  ${unit ? html`<div class="with-unit">${control(field, common)}${unitSuffix(field.name, unit)}</div>` : control(field, common)}
  ${field.help ? html`<p class="help" id="help-${field.name}">${withCode(field.help)}</p>` : ""}
  <p class="field-error" id="error-${field.name}" hidden></p>
</div>`;
}

/** The unit beside the box; one that follows a choice field carries its table for the page's script. */
function unitSuffix(name: string, unit: FieldUnit): Markup {
  if ("fixed" in unit) return html`<span class="unit" id="unit-${name}">${unit.fixed}</span>`;
  return html`<span class="unit" id="unit-${name}" data-unit-field="${unit.field}" data-units="${JSON.stringify(unit.byChoice)}">${unit.initial}</span>`;
}

function control(field: FormField, common: Markup): Markup {
  switch (field.kind) {
    case "choice":
      return html`<select ${common}>${field.choices.map(
        (choice) =>
          html`<option value="${choice}"${choice === field.defaultValue ? " selected" : ""}>${field.choiceLabels[choice] ?? choice}</option>`,
      )}</select>`;
    case "number":
    case "integer":
      return html`<input type="number" inputmode="${field.kind === "integer" ? "numeric" : "decimal"}" step="${field.kind === "integer" ? "1" : "any"}"${
        field.min === null ? "" : html` min="${field.min}"`
      }${field.max === null ? "" : html` max="${field.max}"`}${
        field.defaultValue === null ? "" : html` value="${field.defaultValue}"`
      } ${common}>`;
    case "boolean":
      return html`<input type="checkbox"${field.defaultValue === "true" ? " checked" : ""} ${common}>`;
    case "secret":
      // Not a password box: a PEM public key needs its line breaks, which an <input> drops.
      return html`<textarea rows="3" class="secret" autocomplete="off" autocapitalize="off" spellcheck="false" ${common}></textarea>`;
    case "date":
      return html`<input type="date"${field.defaultValue === null ? "" : html` value="${field.defaultValue}"`} ${common}>`;
    case "text": {
      // No `pattern` attribute: the form is not checked by the browser, and HTML anchors a pattern
      // where JSON Schema does not.
      const size = boxSize(field);
      const type = (field.format === null ? undefined : FORMAT_BOXES[field.format]?.type) ?? "text";
      const example = field.format === null ? undefined : FORMAT_EXAMPLES[field.format];
      return html`<input type="${type}" spellcheck="false"${size === null ? "" : html` size="${size}"`}${
        field.maxLength === null ? "" : html` maxlength="${field.maxLength}"`
      }${example === undefined ? "" : html` placeholder="${example}"`}${field.defaultValue === null ? "" : html` value="${field.defaultValue}"`} ${common}>`;
    }
    case "multiline":
      return html`<textarea rows="${rowsOf(field.maxLength)}" spellcheck="false" ${common}>${field.defaultValue ?? ""}</textarea>`;
  }
}
