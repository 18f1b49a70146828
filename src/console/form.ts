/**
 * A tool's form, generated from its input schema (JSON Schema 2020-12): each property becomes a
 * labelled control. The title is the label, an enum is a choice, bounds are input constraints, the
 * default is the initial value and the description is the help text. A new tool gets its form with
 * no console code.
 */
import type { JsonSchema } from "../tools/tool.ts";
import { escapeHtml, html, Markup } from "./html.ts";

export type FieldKind = "number" | "integer" | "choice" | "boolean" | "text" | "multiline" | "secret";

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly help: string | null;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly choices: readonly string[];
  readonly defaultValue: string | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly maxLength: number | null;
}

/** Strings longer than this, or with no bound, get a multi-line box. */
const SINGLE_LINE_MAX = 200;

export function fieldsOf(schema: JsonSchema): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const types = typesOf(property);
    const choices = Array.isArray(property.enum) ? property.enum.map(String) : [];
    const maxLength = numberOr(property.maxLength);
    return {
      name,
      label: typeof property.title === "string" ? property.title : name,
      help: typeof property.description === "string" ? property.description : null,
      kind: kindOf(property, types, choices, maxLength),
      required: required.has(name),
      choices,
      defaultValue: property.default === undefined ? null : String(property.default),
      min: numberOr(property.minimum) ?? numberOr(property.exclusiveMinimum),
      max: numberOr(property.maximum) ?? numberOr(property.exclusiveMaximum),
      maxLength,
    };
  });
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
  maxLength: number | null,
): FieldKind {
  if (choices.length > 0) return "choice";
  if (types.includes("integer")) return "integer";
  // A number that may also be sent as a numeric string is still a number to a person.
  if (types.includes("number")) return "number";
  if (types.includes("boolean")) return "boolean";
  if (property.writeOnly === true) return "secret";
  return maxLength !== null && maxLength <= SINGLE_LINE_MAX ? "text" : "multiline";
}

function numberOr(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The control, its help and the slot its error message goes in, tied together for screen readers. */
export function renderField(field: FormField): Markup {
  const id = `field-${field.name}`;
  const describedBy = [field.help ? `help-${field.name}` : "", `error-${field.name}`]
    .filter(Boolean)
    .join(" ");
  const common = html`id="${id}" name="${field.name}" data-kind="${field.kind}" aria-describedby="${describedBy}"${field.required ? html` required aria-required="true"` : ""}`;
  return html`<div class="field field-${field.kind}">
  <div class="label-row"><label for="${id}">${field.label}</label>${field.required ? html` <span class="required" aria-hidden="true">required</span>` : ""}</div>
  ${control(field, common)}
  ${field.help ? html`<p class="help" id="help-${field.name}">${withCode(field.help)}</p>` : ""}
  <p class="field-error" id="error-${field.name}" hidden></p>
</div>`;
}

function control(field: FormField, common: Markup): Markup {
  switch (field.kind) {
    case "choice":
      return html`<select ${common}>${field.choices.map(
        (choice) =>
          html`<option value="${choice}"${choice === field.defaultValue ? " selected" : ""}>${choice}</option>`,
      )}</select>`;
    case "number":
    case "integer":
      return html`<input type="number" inputmode="decimal" step="${field.kind === "integer" ? "1" : "any"}"${
        field.min === null ? "" : html` min="${field.min}"`
      }${field.max === null ? "" : html` max="${field.max}"`}${
        field.defaultValue === null ? "" : html` value="${field.defaultValue}"`
      } ${common}>`;
    case "boolean":
      return html`<input type="checkbox"${field.defaultValue === "true" ? " checked" : ""} ${common}>`;
    case "secret":
      // Not a password box: a PEM public key needs its line breaks, which an <input> drops.
      return html`<textarea rows="3" class="secret" autocomplete="off" autocapitalize="off" spellcheck="false" ${common}></textarea>`;
    case "text":
      return html`<input type="text" spellcheck="false"${field.maxLength === null ? "" : html` maxlength="${field.maxLength}"`}${
        field.defaultValue === null ? "" : html` value="${field.defaultValue}"`
      } ${common}>`;
    case "multiline":
      return html`<textarea rows="12" spellcheck="false" ${common}>${field.defaultValue ?? ""}</textarea>`;
  }
}

/** Descriptions mark literal text with backticks, as in Markdown; shown as code. */
function withCode(text: string): Markup {
  return new Markup(escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>"));
}
