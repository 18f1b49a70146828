/**
 * An operator's tool module, written against toolrun's public contract: converts a quantity between
 * units of length, mass or temperature. Load it with `TOOLRUN_TOOLS=examples/tools npm start`;
 * docs/tools/writing-a-tool.md walks through it.
 *
 * The import is of types only, which Node's type stripping erases, so this file runs from any
 * folder with nothing installed next to it; the 422 error comes from the context.
 */
import type { ToolContext, ToolDefinition } from "toolrun/tool";

const UNITS = {
  m: { dimension: "length", name: "metre", factor: 1 },
  km: { dimension: "length", name: "kilometre", factor: 1000 },
  cm: { dimension: "length", name: "centimetre", factor: 0.01 },
  mm: { dimension: "length", name: "millimetre", factor: 0.001 },
  in: { dimension: "length", name: "inch", factor: 0.0254 },
  ft: { dimension: "length", name: "foot", factor: 0.3048 },
  yd: { dimension: "length", name: "yard", factor: 0.9144 },
  mi: { dimension: "length", name: "mile", factor: 1609.344 },
  kg: { dimension: "mass", name: "kilogram", factor: 1 },
  g: { dimension: "mass", name: "gram", factor: 0.001 },
  lb: { dimension: "mass", name: "pound", factor: 0.45359237 },
  oz: { dimension: "mass", name: "ounce", factor: 0.028349523125 },
  // Temperatures are not proportional: each converts to kelvin by its own offset.
  C: { dimension: "temperature", name: "degree Celsius", factor: 1, offset: 273.15 },
  F: { dimension: "temperature", name: "degree Fahrenheit", factor: 5 / 9, offset: 459.67 },
  K: { dimension: "temperature", name: "kelvin", factor: 1, offset: 0 },
} as const;

type Unit = keyof typeof UNITS;

interface Input {
  value: number;
  from: Unit;
  to: Unit;
}

interface Output {
  value: number;
  from: Unit;
  to: Unit;
  result: number;
  dimension: string;
  text: string;
}

const unitNames = Object.keys(UNITS) as Unit[];

function toBase(value: number, unit: Unit): number {
  const spec = UNITS[unit];
  return "offset" in spec ? (value + spec.offset) * spec.factor : value * spec.factor;
}

function fromBase(base: number, unit: Unit): number {
  const spec = UNITS[unit];
  return "offset" in spec ? base / spec.factor - spec.offset : base / spec.factor;
}

const unitConverter: ToolDefinition<Input, Output> = {
  slug: "unit-converter",
  name: "Unit Converter",
  description:
    "Converts a quantity between units of length (m, km, cm, mm, in, ft, yd, mi), mass (kg, g, lb, oz) " +
    "or temperature (C, F, K), and says the result in words.",
  keywords: ["units", "convert", "length", "mass", "weight", "temperature", "metric", "imperial"],
  version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 1024 },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["value", "from", "to"],
    properties: {
      value: { type: "number", title: "Value", description: "The quantity to convert." },
      from: { type: "string", title: "From", enum: unitNames },
      to: { type: "string", title: "To", enum: unitNames },
    },
  },
  outputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["value", "from", "to", "result", "dimension", "text"],
    properties: {
      value: { type: "number" },
      from: { type: "string" },
      to: { type: "string" },
      result: { type: "number", description: "The quantity in the target unit, unrounded." },
      dimension: { type: "string", enum: ["length", "mass", "temperature"] },
      text: { type: "string", description: "The conversion in words, to 6 significant digits." },
    },
  },
  examples: [
    { title: "A marathon in miles", input: { value: 42.195, from: "km", to: "mi" } },
    { title: "Body temperature in Fahrenheit", input: { value: 37, from: "C", to: "F" } },
  ],
  effects: "none",
  timeoutMs: 1000,
  run(input: Input, context: ToolContext): Output {
    const from = UNITS[input.from];
    const to = UNITS[input.to];
    if (from.dimension !== to.dimension) {
      throw new context.UnprocessableInputError(
        `A ${from.name} measures ${from.dimension} and a ${to.name} measures ${to.dimension}: they do not convert.`,
      );
    }
    const base = toBase(input.value, input.from);
    if (from.dimension === "temperature" && base < 0)
      throw new context.UnprocessableInputError(`${input.value} ${input.from} is below absolute zero.`);
    const result = fromBase(base, input.to);
    return {
      value: input.value,
      from: input.from,
      to: input.to,
      result,
      dimension: from.dimension,
      text: `${input.value} ${input.from} = ${Number(result.toPrecision(6))} ${input.to}`,
    };
  },
};

export default unitConverter;
