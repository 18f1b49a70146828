import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retainingWallPressureCalculator } from "../tools/retaining-wall-pressure-calculator/index.ts";
import { webhookPayloadInspector } from "../tools/webhook-payload-inspector/index.ts";
import { fieldsOf, renderField, renderFields } from "./form.ts";

describe("fieldsOf", () => {
  it("labels the calculator's fields with their titles, in order, with choices, bounds and defaults", () => {
    const fields = fieldsOf(retainingWallPressureCalculator.inputSchema);
    assert.deepEqual(
      fields.map((f) => [f.label, f.kind, f.required, f.min, f.max, f.defaultValue]),
      [
        ["Unit System", "choice", false, null, null, "metric"],
        ["Earth Pressure State", "choice", false, null, null, "active"],
        ["Theory", "choice", false, null, null, "rankine"],
        ["Wall Height (H)", "number", true, 0, null, null],
        ["Wall Friction Angle (delta)", "number", false, 0, 50, "0"],
        ["Wall Back Inclination (theta)", "number", false, -30, 30, "0"],
        ["Soil Unit Weight (gamma)", "number", true, 0, null, null],
        ["Friction Angle (phi)", "number", true, 1, 50, null],
        ["Soil Cohesion (c)", "number", false, 0, null, "0"],
        ["Backfill Slope (beta)", "number", false, 0, 45, "0"],
        ["Uniform Surcharge (q)", "number", false, 0, null, "0"],
        ["Water Table Depth (zw)", "number", false, 0, null, null],
        ["Saturated Unit Weight (gamma_sat)", "number", false, 0, null, null],
        ["Horizontal Seismic Coefficient (kh)", "number", false, 0, 0.5, "0"],
        ["Vertical Seismic Coefficient (kv)", "number", false, -0.3, 0.3, "0"],
      ],
    );
    assert.deepEqual(fields[1]?.choices, ["active", "atrest", "passive"]);
  });

  it("puts the calculator's fields in one group each of Wall, Soil, Backfill and loads, Water and Earthquake, with a unit on every length, weight, pressure and angle", () => {
    const fields = fieldsOf(retainingWallPressureCalculator.inputSchema);
    const groups = fields.map((f) => f.group).filter((g, i, all) => g !== null && g !== all[i - 1]);
    assert.deepEqual(groups, ["Wall", "Soil", "Backfill and loads", "Water", "Earthquake"]);
    const unitless = fields.filter((f) => f.kind === "number" && f.unit === null).map((f) => f.name);
    assert.deepEqual(unitless, ["seismicKh", "seismicKv"]);
    assert.deepEqual(fields.find((f) => f.name === "surcharge")?.unit, {
      field: "units",
      byChoice: { metric: "kPa", imperial: "psf" },
      initial: "kPa",
    });
  });

  it("gives the inspector's payload a large box and its write-only secret a small one the browser does not remember", () => {
    const fields = fieldsOf(webhookPayloadInspector.inputSchema);
    assert.deepEqual(
      fields.map((f) => [f.name, f.label, f.kind, f.required]),
      [
        ["payload", "Raw Webhook Request", "multiline", true],
        ["secret", "Signing Secret", "secret", false],
      ],
    );
    const secret = renderField(fields[1] as (typeof fields)[number]).text;
    assert.match(secret, /<textarea rows="3" class="secret" autocomplete="off"[^>]* id="field-secret"/);
  });
});

describe("renderField", () => {
  it("escapes schema text and ties the help and the error slot to the control", () => {
    const [field] = fieldsOf({
      properties: { x: { type: "string", title: "<X & Y>", description: "Send `raw` <b>text</b>." } },
    });
    assert.ok(field);
    const markup = renderField(field).text;
    assert.match(markup, /<label for="field-x">&#60;X &#38; Y&#62;<\/label>/);
    assert.match(markup, /Send <code>raw<\/code> &#60;b&#62;text&#60;\/b&#62;\./);
    assert.match(markup, /aria-describedby="help-x error-x"/);
    assert.match(markup, /<p class="field-error" id="error-x" hidden><\/p>/);
  });
});

describe("groups and units", () => {
  const schema = {
    properties: {
      units: { type: "string", enum: ["metric", "imperial"], default: "imperial" },
      height: { type: "number", "x-group": "Wall", "x-unit": { units: { metric: "m", imperial: "ft" } } },
      angle: { type: "number", "x-group": "Soil", "x-unit": "degrees" },
      weight: { type: "number", "x-group": "Soil", "x-unit": { units: { metric: "kN/m³" } } },
      note: { type: "string", maxLength: 20 },
      inclination: { type: "number", "x-group": "Wall", "x-unit": { nothing: { a: "m" } } },
    },
  };

  it("reads x-group and x-unit; a unit that follows a choice starts at the choice's default", () => {
    assert.deepEqual(
      fieldsOf(schema).map((f) => [f.name, f.group, f.unit]),
      [
        ["units", null, null],
        ["height", "Wall", { field: "units", byChoice: { metric: "m", imperial: "ft" }, initial: "ft" }],
        ["angle", "Soil", { fixed: "degrees" }],
        // No unit for the default choice, or no such choice field: no unit at all.
        ["weight", "Soil", null],
        ["note", null, null],
        ["inclination", "Wall", null],
      ],
    );
  });

  it("puts only consecutive fields of one group in one fieldset", () => {
    const markup = renderFields(fieldsOf(schema))
      .map((m) => m.text)
      .join("");
    const sets = [
      ...markup.matchAll(/<fieldset class="group">\s*<legend>([^<]+)<\/legend>([\s\S]*?)<\/fieldset>/g),
    ].map((m) => [m[1], [...(m[2] ?? "").matchAll(/<label for="field-(\w+)"/g)].map((l) => l[1])]);
    assert.deepEqual(sets, [
      ["Wall", ["height"]],
      ["Soil", ["angle", "weight"]],
      ["Wall", ["inclination"]],
    ]);
    // `note` has no group: it stands between the Soil and the second Wall fieldsets.
    assert.ok(markup.indexOf('for="field-note"') < markup.indexOf('for="field-inclination"'));
  });

  it("names the shell variable of a write-only field after the tool's first word and the field", () => {
    const fields = fieldsOf(
      {
        properties: {
          secret: { type: "string", writeOnly: true },
          apiToken: { type: "string", writeOnly: true },
        },
      },
      "webhook-payload-inspector",
    );
    assert.deepEqual(
      fields.map((f) => f.envName),
      ["WEBHOOK_SECRET", "WEBHOOK_API_TOKEN"],
    );
  });
});

describe("controls sized by type, format, pattern and maxLength", () => {
  const schema = {
    properties: {
      symbol: { type: "string", pattern: "^[A-Z]{1,5}$" },
      since: { type: "string", format: "date", title: "Active Since" },
      at: { type: "string", format: "date-time" },
      email: { type: "string", format: "email" },
      website: { type: "string", format: "uri" },
      code: { type: "string", maxLength: 6 },
      note: { type: "string", maxLength: 1000 },
      body: { type: "string" },
      first_name: { type: "string", maxLength: 80 },
      count: { type: "integer" },
    },
  };
  const fields = fieldsOf(schema);
  const markupOf = (name: string) => {
    const field = fields.find((f) => f.name === name);
    assert.ok(field, name);
    return renderField(field).text;
  };

  it("labels a field by its title, else by its name for people", () => {
    assert.deepEqual(
      fields.map((f) => f.label),
      ["Symbol", "Active Since", "At", "Email", "Website", "Code", "Note", "Body", "First name", "Count"],
    );
  });

  it("gives a date a date box, a format or a pattern one line, and only free text a multi-line box", () => {
    assert.deepEqual(
      fields.map((f) => [f.name, f.kind]),
      [
        ["symbol", "text"],
        ["since", "date"],
        ["at", "text"],
        ["email", "text"],
        ["website", "text"],
        ["code", "text"],
        ["note", "multiline"],
        ["body", "multiline"],
        ["first_name", "text"],
        ["count", "integer"],
      ],
    );
    assert.match(markupOf("since"), /<input type="date" id="field-since"/);
    assert.match(markupOf("email"), /<input type="email" spellcheck="false" size="32" id="field-email"/);
    assert.match(markupOf("website"), /<input type="url" spellcheck="false" size="40" id="field-website"/);
    // The browser's date-time picker gives no seconds and no offset: a box with an example instead.
    assert.match(
      markupOf("at"),
      /<input type="text" spellcheck="false" size="25" placeholder="2026-01-31T14:30:00Z"/,
    );
    assert.match(markupOf("count"), /inputmode="numeric" step="1"/);
  });

  it("draws a one-line box as wide as its value and a multi-line box as tall as its bound", () => {
    assert.match(markupOf("symbol"), /<input type="text" spellcheck="false" size="24" id="field-symbol"/);
    assert.match(markupOf("code"), /size="6" maxlength="6"/);
    assert.match(markupOf("first_name"), /size="40" maxlength="80"/);
    assert.match(markupOf("note"), /<textarea rows="5" /);
    assert.match(markupOf("body"), /<textarea rows="12" /);
    // A pattern is the service's to check (the form is novalidate), and HTML would anchor it.
    assert.doesNotMatch(markupOf("symbol"), /pattern=/);
  });
});
