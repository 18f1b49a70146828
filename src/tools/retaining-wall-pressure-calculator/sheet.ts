/**
 * The calculation as a checker reads it: the method (each formula, the values put into it, and
 * what it gives), the thrust split into the parts a hand calculation adds up (each with its lever
 * arm and moment about the base), and the assumptions behind the figures. Text and numbers only:
 * the engineering is compute.ts's, and every figure here is read from its answer or from the
 * same closed forms, so the parts add up to its totals.
 */
import type { WallParameters, WallPressure } from "./compute.ts";
import { fixed, UNIT_LABELS } from "./format.ts";
import type { ComponentRow, MethodRow, UnitSystem } from "./schema.ts";

/** An input as given, to at most 4 decimals ("30", "17.5", "0.2"). */
const given = (value: number): string => {
  const text = fixed(value, 4);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
};
const deg = (value: number): string => `${given(value)}°`;
const two = (value: number): string => fixed(value, 2);
/** A number inside a substitution: a negative one in brackets. */
const term = (value: number): string => (value < 0 ? `(${given(value)})` : given(value));

type Labels = (typeof UNIT_LABELS)[UnitSystem];

/** A part of the thrust: a rectangle or triangle of the diagram, the water, or Seed and Whitman's two parts. */
type Part = {
  readonly component: string;
  readonly formula: string;
  readonly force: number;
  /** Height of its line of action above the base. */
  readonly height: number;
  readonly horizontal: boolean;
};

type Case = {
  readonly parameters: WallParameters;
  readonly figures: WallPressure;
  readonly labels: Labels;
  /** "Ka", "K0", "Kp". */
  readonly k: string;
  readonly coulomb: boolean;
  readonly wet: boolean;
  readonly earthquake: boolean;
  readonly cohesive: boolean;
};

export type Sheet = {
  readonly method: MethodRow[];
  readonly components: ComponentRow[];
  readonly assumptions: string[];
};

export function calculationSheet(
  parameters: WallParameters,
  figures: WallPressure,
  units: UnitSystem,
): Sheet {
  const { state } = parameters;
  const c: Case = {
    parameters,
    figures,
    labels: UNIT_LABELS[units],
    k: state === "active" ? "Ka" : state === "passive" ? "Kp" : "K0",
    coulomb: parameters.method === "coulomb" && state !== "atrest",
    wet: figures.diagram.some((point) => point.waterPressure !== undefined),
    earthquake: figures.seismicInertiaAngle > 0,
    cohesive: parameters.cohesion > 0 && state !== "atrest",
  };
  const parts = c.earthquake ? seismicParts(c) : staticParts(c);
  return { method: method(c, parts), components: components(c, parts), assumptions: assumptions(c) };
}

/** The coefficient's formula and the values put in it. */
function coefficientRow(c: Case): MethodRow {
  const { state, frictionAngle: phi, backfillSlope: beta } = c.parameters;
  const result = fixed(c.figures.coefficient, 4);
  if (state === "atrest") {
    return {
      quantity: "At-rest coefficient (Jaky)",
      formula: "K0 = (1 − sin φ)·(1 + sin β)",
      substitution: `(1 − sin ${deg(phi)})·(1 + sin ${deg(beta)})`,
      result,
    };
  }
  const active = state === "active";
  const name = `${active ? "Active" : "Passive"} coefficient`;
  if (c.coulomb) {
    const { wallFriction: delta, wallInclination: theta } = c.parameters;
    return active
      ? {
          quantity: `${name} (Coulomb)`,
          formula:
            "Ka = cos²(φ − θ) / (cos²θ·cos(δ + θ)·[1 + √(sin(φ + δ)·sin(φ − β) / (cos(δ + θ)·cos(θ − β)))]²)",
          substitution:
            `cos²(${deg(phi)} − ${deg(theta)}) / (cos²${deg(theta)}·cos(${deg(delta)} + ${deg(theta)})·` +
            `[1 + √(sin(${deg(phi)} + ${deg(delta)})·sin(${deg(phi)} − ${deg(beta)}) / ` +
            `(cos(${deg(delta)} + ${deg(theta)})·cos(${deg(theta)} − ${deg(beta)})))]²)`,
          result,
        }
      : {
          quantity: `${name} (Coulomb)`,
          formula:
            "Kp = cos²(φ + θ) / (cos²θ·cos(δ − θ)·[1 − √(sin(φ + δ)·sin(φ + β) / (cos(δ − θ)·cos(θ − β)))]²)",
          substitution:
            `cos²(${deg(phi)} + ${deg(theta)}) / (cos²${deg(theta)}·cos(${deg(delta)} − ${deg(theta)})·` +
            `[1 − √(sin(${deg(phi)} + ${deg(delta)})·sin(${deg(phi)} + ${deg(beta)}) / ` +
            `(cos(${deg(delta)} − ${deg(theta)})·cos(${deg(theta)} − ${deg(beta)})))]²)`,
          result,
        };
  }
  if (beta === 0) {
    const sign = active ? "−" : "+";
    return {
      quantity: `${name} (Rankine)`,
      formula: `${c.k} = tan²(45° ${sign} φ/2)`,
      substitution: `tan²(45° ${sign} ${deg(phi)}/2)`,
      result,
    };
  }
  const [inner, outer] = active ? ["−", "+"] : ["+", "−"];
  const root = `√(cos²${deg(beta)} − cos²${deg(phi)})`;
  return {
    quantity: `${name} (Rankine, sloping backfill)`,
    formula: `${c.k} = cos β·(cos β ${inner} √(cos²β − cos²φ)) / (cos β ${outer} √(cos²β − cos²φ))`,
    substitution: `cos ${deg(beta)}·(cos ${deg(beta)} ${inner} ${root}) / (cos ${deg(beta)} ${outer} ${root})`,
    result,
  };
}

/** ψ and KAE: the Mononobe-Okabe coefficient, with Rankine's wedge as θ = 0, δ = β. */
function seismicRows(c: Case): MethodRow[] {
  const { frictionAngle: phi, backfillSlope: beta, seismic } = c.parameters;
  const kh = seismic?.kh ?? 0;
  const kv = seismic?.kv ?? 0;
  const delta = c.coulomb ? c.parameters.wallFriction : beta;
  const theta = c.coulomb ? c.parameters.wallInclination : 0;
  return [
    {
      quantity: "Seismic inertia angle",
      formula: "ψ = atan(kh / (1 − kv))",
      substitution: `atan(${given(kh)} / (1 − ${term(kv)}))`,
      result: `${two(c.figures.seismicInertiaAngle)}°`,
    },
    {
      quantity: c.coulomb
        ? "Seismic coefficient (Mononobe-Okabe)"
        : "Seismic coefficient (Mononobe-Okabe, θ = 0, δ = β)",
      formula:
        "KAE = cos²(φ − θ − ψ) / (cos ψ·cos²θ·cos(δ + θ + ψ)·[1 + √(sin(φ + δ)·sin(φ − β − ψ) / (cos(δ + θ + ψ)·cos(θ − β)))]²)",
      substitution: (() => {
        const psi = deg(Number(c.figures.seismicInertiaAngle.toFixed(2)));
        return (
          `cos²(${deg(phi)} − ${deg(theta)} − ${psi}) / (cos ${psi}·cos²${deg(theta)}·cos(${deg(delta)} + ${deg(theta)} + ${psi})·` +
          `[1 + √(sin(${deg(phi)} + ${deg(delta)})·sin(${deg(phi)} − ${deg(beta)} − ${psi}) / ` +
          `(cos(${deg(delta)} + ${deg(theta)} + ${psi})·cos(${deg(theta)} − ${deg(beta)})))]²)`
        );
      })(),
      result: fixed(c.figures.seismicCoefficient, 4),
    },
  ];
}

/** The pressures at the key depths, and the tension crack. */
function pressureRows(c: Case): MethodRow[] {
  const { parameters: p, figures: f, labels, k } = c;
  const kPa = labels.pressure;
  const K = given(Number(f.coefficient.toFixed(4)));
  const rows: MethodRow[] = [];
  if (p.surcharge > 0) {
    rows.push(
      c.coulomb
        ? {
            quantity: "Surcharge pressure",
            formula: `${k}·q′, q′ = q·cos θ·cos β / cos(θ − β)`,
            substitution: `${K} × ${given(p.surcharge)} × cos ${deg(p.wallInclination)} × cos ${deg(p.backfillSlope)} / cos(${deg(p.wallInclination)} − ${deg(p.backfillSlope)})`,
            result: `${two(f.surchargePressure)} ${kPa}`,
          }
        : {
            quantity: "Surcharge pressure",
            formula: `${k}·q`,
            substitution: `${K} × ${given(p.surcharge)}`,
            result: `${two(f.surchargePressure)} ${kPa}`,
          },
    );
  }
  const cohesionTerm = c.cohesive ? 2 * p.cohesion * Math.sqrt(f.coefficient) : 0;
  if (c.cohesive) {
    rows.push({
      quantity: "Cohesion term",
      formula: p.state === "active" ? "−2c·√Ka" : "+2c·√Kp",
      substitution: `${p.state === "active" ? "−" : ""}2 × ${given(p.cohesion)} × √${K}`,
      result: `${two(p.state === "active" ? -cohesionTerm : cohesionTerm)} ${kPa}`,
    });
  }
  if (c.cohesive && p.state === "active") rows.push(crackRow(c, cohesionTerm));
  const cTerm = c.cohesive ? (p.state === "active" ? " − 2c·√Ka" : " + 2c·√Kp") : "";
  const cValue = c.cohesive ? ` ${p.state === "active" ? "−" : "+"} ${two(cohesionTerm)}` : "";
  const q = p.surcharge > 0 ? (c.coulomb ? " + q′" : " + q") : "";
  const qValue =
    p.surcharge > 0 ? ` + ${given(c.coulomb ? f.surchargePressure / f.coefficient : p.surcharge)}` : "";
  const water = p.water;
  if (c.wet && water !== undefined) {
    const above = f.diagram.find((point) => point.depth === water.depth);
    rows.push({
      quantity: "Soil pressure at the water table",
      formula: `${k}·${q ? `(γ·zw${q})` : "γ·zw"}${cTerm}${c.cohesive && p.state === "active" ? ", not below 0" : ""}`,
      substitution: `${K} × ${q ? `(${given(p.unitWeight)} × ${given(water.depth)}${qValue})` : `${given(p.unitWeight)} × ${given(water.depth)}`}${cValue}`,
      result: `${two((above?.pressure ?? 0) - (above?.waterPressure ?? 0))} ${kPa}`,
    });
    const sigma =
      p.unitWeight * water.depth +
      p.surcharge +
      (water.saturatedUnitWeight - water.unitWeight) * (p.height - water.depth);
    rows.push({
      quantity: "Effective stress at the base",
      formula: `σ′v = γ·zw${p.surcharge > 0 ? " + q" : ""} + (γsat − γw)·(H − zw)`,
      substitution: `${given(p.unitWeight)} × ${given(water.depth)}${p.surcharge > 0 ? ` + ${given(p.surcharge)}` : ""} + (${given(water.saturatedUnitWeight)} − ${given(water.unitWeight)}) × (${given(p.height)} − ${given(water.depth)})`,
      result: `${two(sigma)} ${kPa}`,
    });
    const base = f.diagram.at(-1);
    rows.push({
      quantity: "Soil pressure at the base",
      formula: `${k}·σ′v${cTerm}${c.cohesive && p.state === "active" ? ", not below 0" : ""}`,
      substitution: `${K} × ${two(sigma)}${cValue}`,
      result: `${two((base?.pressure ?? 0) - (base?.waterPressure ?? 0))} ${kPa}`,
    });
    rows.push({
      quantity: "Water pressure at the base",
      formula: "u = γw·(H − zw)",
      substitution: `${given(water.unitWeight)} × (${given(p.height)} − ${given(water.depth)})`,
      result: `${two(base?.waterPressure ?? 0)} ${kPa}`,
    });
    return rows;
  }
  const surcharge = c.earthquake ? "" : q;
  rows.push({
    quantity: c.earthquake ? "Static pressure at the base" : "Pressure at the base",
    formula: `${k}·${surcharge ? `(γ·H${surcharge})` : "γ·H"}${cTerm}${c.cohesive && p.state === "active" ? ", not below 0" : ""}`,
    substitution: `${K} × ${surcharge ? `(${given(p.unitWeight)} × ${given(p.height)}${qValue})` : `${given(p.unitWeight)} × ${given(p.height)}`}${cValue}`,
    result: `${two(f.basePressure)} ${kPa}`,
  });
  return rows;
}

/** Where the active pressure K·σ′v − 2c√K is zero: the bottom of the tension crack. */
function crackRow(c: Case, cohesionTerm: number): MethodRow {
  const { parameters: p, figures: f, labels } = c;
  const zc = `${two(f.tensionCrackDepth)} ${labels.length}`;
  const K = given(Number(f.coefficient.toFixed(4)));
  const q = p.surcharge > 0 ? " − q" : "";
  const qValue = p.surcharge > 0 ? ` − ${given(p.surcharge)}` : "";
  const balancing = `2 × ${given(p.cohesion)} / √${K}`;
  if (f.tensionCrackDepth === 0) {
    return {
      quantity: "Tension crack depth",
      formula: "none where Ka·q ≥ 2c·√Ka",
      substitution: `${K} × ${given(p.surcharge)} = ${two(f.surchargePressure)} ≥ ${two(cohesionTerm)}`,
      result: zc,
    };
  }
  const water = p.water;
  if (c.wet && water !== undefined && f.tensionCrackDepth > water.depth) {
    return {
      quantity: "Tension crack depth (below the water table)",
      formula: `zc = zw + (2c/√Ka${q} − γ·zw) / (γsat − γw)`,
      substitution: `${given(water.depth)} + (${balancing}${qValue} − ${given(p.unitWeight)} × ${given(water.depth)}) / (${given(water.saturatedUnitWeight)} − ${given(water.unitWeight)})`,
      result: f.tensionCrackDepth >= p.height ? `${zc} (= H: the whole height)` : zc,
    };
  }
  return {
    quantity: "Tension crack depth",
    formula: `zc = (2c/√Ka${q}) / γ`,
    substitution: `(${balancing}${qValue}) / ${given(p.unitWeight)}`,
    result: f.tensionCrackDepth >= p.height ? `${zc} (= H: the whole height)` : zc,
  };
}

/** Where the thrust acts and what it turns about the base. */
function totalRows(c: Case, parts: readonly Part[]): MethodRow[] {
  const { figures: f, labels } = c;
  const angle = f.thrustInclination;
  const horizontal = (part: Part) => (part.horizontal ? part.force : part.force * Math.cos(rad(angle)));
  const shown = parts.filter((part) => part.force !== 0);
  const rows: MethodRow[] = [
    {
      quantity: "Total thrust",
      formula: "P = Σ Pi",
      substitution: shown.length > 0 ? shown.map((part) => two(part.force)).join(" + ") : "0",
      result: `${two(f.thrust)} ${labels.force}`,
    },
  ];
  if (angle !== 0) {
    const symbol = c.coulomb ? (c.parameters.state === "active" ? "δ + θ" : "θ − δ") : "β";
    rows.push({
      quantity: "Horizontal component",
      formula: c.wet ? `Ph = P(soil)·cos(${symbol}) + Pw` : `Ph = P·cos(${symbol})`,
      substitution: c.wet
        ? `${two(f.thrust - f.waterThrust)} × cos ${deg(Number(angle.toFixed(2)))} + ${two(f.waterThrust)}`
        : `${two(f.thrust)} × cos ${deg(Number(angle.toFixed(2)))}`,
      result: `${two(f.horizontalThrust)} ${labels.force}`,
    });
    rows.push({
      quantity: "Vertical component",
      formula: `Pv = P${c.wet ? "(soil)" : ""}·sin(${symbol})`,
      substitution: `${two(f.thrust - f.waterThrust)} × sin ${deg(Number(angle.toFixed(2)))}`,
      result: `${two(f.verticalThrust)} ${labels.force}`,
    });
  }
  rows.push(
    {
      quantity: "Height of the resultant",
      formula: "ȳ = Σ Pi·yi / Σ Pi",
      substitution:
        shown.length > 0
          ? `(${shown.map((part) => `${two(part.force)} × ${two(part.height)}`).join(" + ")}) / ${two(f.thrust)}`
          : "no thrust",
      result: `${two(f.thrustHeight)} ${labels.length}`,
    },
    {
      quantity: "Overturning moment",
      formula: "M = Σ Ph,i·yi",
      substitution:
        shown.length > 0
          ? shown.map((part) => `${two(horizontal(part))} × ${two(part.height)}`).join(" + ")
          : "0",
      result: `${two(f.overturningMoment)} ${labels.moment}`,
    },
  );
  return rows;
}

function method(c: Case, parts: readonly Part[]): MethodRow[] {
  const rows = [coefficientRow(c)];
  if (c.earthquake) rows.push(...seismicRows(c));
  rows.push(...pressureRows(c));
  if (c.earthquake) {
    const { height: H, unitWeight: gamma, seismic } = c.parameters;
    const kv = seismic?.kv ?? 0;
    rows.push(
      {
        quantity: "Seismic thrust",
        formula: "PAE = ½·γ·H²·(1 − kv)·KAE",
        substitution: `½ × ${given(gamma)} × ${given(H)}² × (1 − ${term(kv)}) × ${fixed(c.figures.seismicCoefficient, 4)}`,
        result: `${two(c.figures.thrust)} ${c.labels.force}`,
      },
      {
        quantity: "Dynamic increment",
        formula: "ΔPAE = PAE − PA, at 0.6·H",
        substitution: `${two(c.figures.thrust)} − ${two(c.figures.staticThrust)}`,
        result: `${two(c.figures.dynamicIncrement)} ${c.labels.force}`,
      },
    );
  }
  rows.push(...totalRows(c, parts));
  return rows;
}

const rad = (degrees: number): number => (degrees * Math.PI) / 180;

/** The thrust and moment columns of each part, and the totals (compute.ts's own) they add up to. */
function components(c: Case, parts: readonly Part[]): ComponentRow[] {
  const { figures: f } = c;
  const inclined = f.thrustInclination !== 0;
  const cos = Math.cos(rad(f.thrustInclination));
  const rows: ComponentRow[] = parts.map((part) => {
    const horizontal = part.horizontal ? part.force : part.force * cos;
    return {
      component: part.component,
      formula: part.formula,
      thrust: part.force,
      ...(inclined && { horizontalThrust: horizontal }),
      leverArm: part.height,
      moment: horizontal * part.height,
    };
  });
  rows.push({
    component: "Total",
    formula: "Σ",
    thrust: f.thrust,
    ...(inclined && { horizontalThrust: f.horizontalThrust }),
    moment: f.overturningMoment,
  });
  return rows;
}

/**
 * The diagram between its break points (the bottom of the tension crack, the water table) is
 * linear, so each stretch is a rectangle (its pressure at the top of the stretch) and a triangle
 * (the growth down it): the parts a hand calculation adds. Named after what loads them.
 */
function staticParts(c: Case): Part[] {
  const { parameters: p, figures: f, k } = c;
  const H = p.height;
  const K = given(Number(f.coefficient.toFixed(4)));
  const water = c.wet ? p.water : undefined;
  const zw = water?.depth ?? H;
  const zc = f.tensionCrackDepth;
  const earthAt = (depth: number): number => {
    const point = f.diagram.find((q) => q.depth === depth);
    if (point !== undefined) return point.pressure - (point.waterPressure ?? 0);
    return 0;
  };
  const parts: Part[] = [];
  const cTerm = c.cohesive ? (p.state === "active" ? " − 2c·√Ka" : " + 2c·√Kp") : "";
  const q = p.surcharge > 0;
  // Above the water table (the whole wall when dry): from the crack (or the top) down to zw.
  const top = Math.min(zc, zw);
  const topPressure = earthAt(top);
  if (top === 0 && topPressure > 0 && zw > 0) {
    const name = !c.cohesive
      ? "Surcharge"
      : !q
        ? "Cohesion"
        : p.state === "active"
          ? "Surcharge less cohesion"
          : "Surcharge and cohesion";
    const pressure = [q ? `${k}·${c.coulomb ? "q′" : "q"}` : "", cTerm.trim()].filter(Boolean).join(" ");
    parts.push({
      component: water === undefined ? name : `${name}, above the water table`,
      formula: `(${pressure.replace(/^\+ /, "")})·${water === undefined ? "H" : "zw"} = ${two(topPressure)} × ${given(zw)}`,
      force: topPressure * zw,
      height: H - zw / 2,
      horizontal: false,
    });
  }
  if (top < zw) {
    const length = zw - top;
    const soil = water === undefined ? "Soil" : "Soil above the water table";
    const span =
      top > 0 ? (water === undefined ? "(H − zc)" : "(zw − zc)") : water === undefined ? "H" : "zw";
    parts.push({
      component: top > 0 ? `${soil}, below the tension crack` : soil,
      formula: `½·${k}·γ·${span}² = ½ × ${K} × ${given(p.unitWeight)} × ${given(length)}²`,
      force: 0.5 * f.coefficient * p.unitWeight * length * length,
      height: H - top - (2 * length) / 3,
      horizontal: false,
    });
  }
  if (water !== undefined) {
    const below = Math.max(zc, zw);
    const length = H - below;
    const atTable = earthAt(below);
    if (atTable > 0 && length > 0) {
      parts.push({
        component: "Soil below the water table, uniform part",
        formula: `p(zw)·(H − zw) = ${two(atTable)} × ${given(length)}`,
        force: atTable * length,
        height: length / 2,
        horizontal: false,
      });
    }
    if (length > 0) {
      const buoyant = water.saturatedUnitWeight - water.unitWeight;
      parts.push({
        component: zc > zw ? "Soil below the tension crack" : "Soil below the water table, triangular part",
        formula: `½·${k}·(γsat − γw)·${zc > zw ? "(H − zc)" : "(H − zw)"}² = ½ × ${K} × ${given(buoyant)} × ${given(length)}²`,
        force: 0.5 * f.coefficient * buoyant * length * length,
        height: length / 3,
        horizontal: false,
      });
    }
    const depth = H - water.depth;
    parts.push({
      component: "Water",
      formula: `½·γw·(H − zw)² = ½ × ${given(water.unitWeight)} × ${given(depth)}²`,
      force: f.waterThrust,
      height: depth / 3,
      horizontal: true,
    });
  }
  return parts.filter((part) => part.force > 0);
}

/** Seed and Whitman: the static thrust at H/3 and the dynamic increment at 0.6 H. */
function seismicParts(c: Case): Part[] {
  const { parameters: p, figures: f, k } = c;
  return [
    {
      component: "Static soil thrust",
      formula: `PA = ½·${k}·γ·H² = ½ × ${given(Number(f.coefficient.toFixed(4)))} × ${given(p.unitWeight)} × ${given(p.height)}²`,
      force: f.staticThrust,
      height: p.height / 3,
      horizontal: false,
    },
    {
      component: "Dynamic increment",
      formula: "ΔPAE = PAE − PA, at 0.6·H",
      force: f.dynamicIncrement,
      height: 0.6 * p.height,
      horizontal: false,
    },
  ];
}

function assumptions(c: Case): string[] {
  const { parameters: p, figures: f, labels } = c;
  const run = labels.length === "m" ? "metre" : "foot";
  const list = [
    "Characteristic values: no partial factors are applied.",
    `Forces and moments per ${run} run of wall (plane strain).`,
    "Drained (effective stress) analysis of a homogeneous backfill.",
  ];
  if (p.state === "atrest") {
    list.push(
      "At rest: the wall does not move; K0 by Jaky, with the factor (1 + sin β) for a sloping backfill.",
    );
  } else if (c.coulomb) {
    list.push(
      `Coulomb: a plane sliding wedge; the thrust acts at ${p.state === "active" ? "δ + θ" : "θ − δ"} to the horizontal.`,
    );
  } else {
    list.push(
      "Rankine: a vertical, smooth wall back; the thrust acts parallel to the backfill surface (at β).",
    );
  }
  if (p.surcharge > 0) list.push("The surcharge q is uniform and covers the whole backfill surface.");
  if (c.cohesive && p.state === "active") {
    list.push("Tension crack: active pressure below zero is taken as zero; no water in the tension crack.");
  }
  if (c.wet) {
    list.push("Hydrostatic water table at zw, no seepage; the water pressure acts horizontally.");
  } else if (!c.earthquake) {
    list.push("No water pressure: the backfill drains freely down to the base.");
  }
  if (c.earthquake) {
    list.push(
      "Pseudo-static Mononobe-Okabe: dry, cohesionless backfill; kv positive upward; the dynamic increment acts at 0.6·H (Seed and Whitman).",
    );
  }
  list.push(
    f.thrustInclination === 0
      ? "Overturning moment about the base from the horizontal thrust."
      : "Overturning moment about the base from the horizontal component Ph only; the vertical component Pv is not included.",
  );
  return list;
}
