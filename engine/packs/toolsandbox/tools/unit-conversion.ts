// A pint-compatible unit converter for the unit_conversion tool. Upstream hands English unit
// names to pint, so the agent sees pint's vocabulary (celsius, fahrenheit, kilometer, mph, ...),
// pint's numbers and pint's error texts. This module accepts pint's spellings, holds each unit's
// size as pint defines it (yard = 0.9144 m, gallon = 231 cubic inches, year = 365.25 days, ...),
// prints units and dimensionalities the way pint does, and converts offset temperatures with
// pint's formula (to kelvin: value * scale + offset; back: (kelvin - offset) / scale).
//
// js-quantities was considered and not used: several of its constants differ from pint's
// definitions (its year is 31556926 s, pint's 31557600 s) and its rounding arithmetic changes
// results (1 degree -> 0.0174532925199433 rad instead of 0.017453292519943295), while the
// names and dimensionalities pint prints had to be tabulated here anyway.
//
// Supported expressions: one unit, or units joined by "*", "/", whitespace or "per", with
// integer powers ("m**2", "m^2", "square meter", "cubic foot", "meter squared"). Any SI prefix
// may precede a unit name and a trailing "s" is accepted, as in pint ("kilometers", "hrs").
// Celsius and Fahrenheit are absolute temperatures with an offset and only convert on their own.
//
// Limits, on purpose: the table is the everyday subset of pint's registry (about 80 units); a
// unit pint knows but the table lacks is reported as undefined. Results agree with pint's to
// floating-point rounding, not necessarily in the last digit, since pint multiplies its
// definition chain in its own order. The OffsetUnitCalculusError text is modelled on pint's, not
// verified against it.
import { ToolError } from "../../../tools/types.js";

type Dims = Readonly<Record<string, number>>;

interface UnitDef {
  /** The name pint prints for the unit. */
  readonly pint: string;
  /** Accepted spellings besides `pint` (case-sensitive, like pint). */
  readonly aliases: readonly string[];
  readonly dims: Dims;
  /** Size of one unit in SI base units (kilogram, meter, second, kelvin, bit, radian). */
  readonly factor: number;
  /** Offset temperatures (Celsius, Fahrenheit): kelvin = value * factor + offset. */
  readonly offset?: number;
}

const L = { "[length]": 1 };
const M = { "[mass]": 1 };
const T = { "[time]": 1 };
const K = { "[temperature]": 1 };
const AREA = { "[length]": 2 };
const VOLUME = { "[length]": 3 };
const SPEED = { "[length]": 1, "[time]": -1 };
const ENERGY = { "[length]": 2, "[mass]": 1, "[time]": -2 };
const POWER = { "[length]": 2, "[mass]": 1, "[time]": -3 };
const PRESSURE = { "[length]": -1, "[mass]": 1, "[time]": -2 };
const FORCE = { "[length]": 1, "[mass]": 1, "[time]": -2 };
const INFORMATION = { "[information]": 1 };
const NONE = {};

// pint's defining constants.
const YARD = 0.9144;
const INCH = YARD / 36;
const FOOT = YARD / 3;
const MILE = 1760 * YARD;
const POUND = 0.45359237;
const GRAVITY = 9.80665;
const POUND_FORCE = GRAVITY * POUND;
const GALLON = 231 * INCH ** 3;
const HOUR = 3600;
const DAY = 86400;
const YEAR = 365.25 * DAY;
const SPEED_OF_LIGHT = 299792458;
const ATMOSPHERE = 101325;
const MERCURY = 13.5951e3 * GRAVITY; // pint's Hg: conventional mercury density times standard gravity

const UNITS: readonly UnitDef[] = [
  // Length
  { pint: "meter", aliases: ["m", "metre"], dims: L, factor: 1 },
  { pint: "inch", aliases: ["in", "inches", "international_inch"], dims: L, factor: INCH },
  { pint: "foot", aliases: ["ft", "feet", "international_foot"], dims: L, factor: FOOT },
  { pint: "yard", aliases: ["yd", "international_yard"], dims: L, factor: YARD },
  { pint: "mile", aliases: ["mi", "international_mile"], dims: L, factor: MILE },
  { pint: "nautical_mile", aliases: ["nmi"], dims: L, factor: 1852 },
  { pint: "angstrom", aliases: ["Å", "ångström"], dims: L, factor: 1e-10 },
  { pint: "micron", aliases: ["µ", "μ"], dims: L, factor: 1e-6 },
  { pint: "astronomical_unit", aliases: ["au"], dims: L, factor: 149597870700 },
  { pint: "light_year", aliases: ["ly", "lightyear"], dims: L, factor: SPEED_OF_LIGHT * YEAR },
  // Mass
  { pint: "gram", aliases: ["g"], dims: M, factor: 1e-3 },
  { pint: "pound", aliases: ["lb", "avoirdupois_pound"], dims: M, factor: POUND },
  { pint: "ounce", aliases: ["oz", "avoirdupois_ounce"], dims: M, factor: POUND / 16 },
  { pint: "stone", aliases: [], dims: M, factor: 14 * POUND },
  { pint: "ton", aliases: ["short_ton"], dims: M, factor: 2000 * POUND },
  { pint: "long_ton", aliases: [], dims: M, factor: 2240 * POUND },
  { pint: "metric_ton", aliases: ["t", "tonne"], dims: M, factor: 1000 },
  { pint: "grain", aliases: ["gr"], dims: M, factor: POUND / 7000 },
  { pint: "carat", aliases: ["ct", "karat"], dims: M, factor: 200e-6 },
  // Time
  { pint: "second", aliases: ["s", "sec"], dims: T, factor: 1 },
  { pint: "minute", aliases: ["min"], dims: T, factor: 60 },
  { pint: "hour", aliases: ["h", "hr"], dims: T, factor: HOUR },
  { pint: "day", aliases: ["d"], dims: T, factor: DAY },
  { pint: "week", aliases: [], dims: T, factor: 7 * DAY },
  { pint: "fortnight", aliases: [], dims: T, factor: 14 * DAY },
  { pint: "month", aliases: [], dims: T, factor: YEAR / 12 },
  { pint: "year", aliases: ["a", "yr", "julian_year"], dims: T, factor: YEAR },
  { pint: "decade", aliases: [], dims: T, factor: 10 * YEAR },
  { pint: "century", aliases: ["centuries"], dims: T, factor: 100 * YEAR },
  { pint: "millennium", aliases: ["millennia"], dims: T, factor: 1000 * YEAR },
  // Temperature: kelvin and Rankine are plain multiples; Celsius and Fahrenheit have offsets.
  { pint: "kelvin", aliases: ["K", "degK", "degreeK", "degree_Kelvin"], dims: K, factor: 1 },
  { pint: "degree_Celsius", aliases: ["celsius", "degC", "degreeC"], dims: K, factor: 1, offset: 273.15 },
  { pint: "degree_Fahrenheit", aliases: ["fahrenheit", "degF", "degreeF"], dims: K, factor: 5 / 9, offset: 233.15 + 200 / 9 },
  { pint: "degree_Rankine", aliases: ["rankine", "degR", "degreeR"], dims: K, factor: 5 / 9 },
  // Area and volume
  { pint: "are", aliases: [], dims: AREA, factor: 100 },
  { pint: "hectare", aliases: ["ha"], dims: AREA, factor: 10000 },
  { pint: "acre", aliases: [], dims: AREA, factor: 43560 * FOOT ** 2 },
  { pint: "liter", aliases: ["l", "L", "litre"], dims: VOLUME, factor: 1e-3 },
  { pint: "gallon", aliases: ["gal", "US_liquid_gallon"], dims: VOLUME, factor: GALLON },
  { pint: "quart", aliases: ["qt", "US_liquid_quart"], dims: VOLUME, factor: GALLON / 4 },
  { pint: "pint", aliases: ["pt", "US_pint", "liquid_pint"], dims: VOLUME, factor: GALLON / 8 },
  { pint: "cup", aliases: ["cp", "US_cup"], dims: VOLUME, factor: GALLON / 16 },
  { pint: "fluid_ounce", aliases: ["floz", "fl_oz", "US_fluid_ounce"], dims: VOLUME, factor: GALLON / 128 },
  { pint: "tablespoon", aliases: ["tbsp", "Tbsp", "Tblsp", "tblsp"], dims: VOLUME, factor: GALLON / 256 },
  { pint: "teaspoon", aliases: ["tsp"], dims: VOLUME, factor: GALLON / 768 },
  { pint: "imperial_gallon", aliases: ["UK_gallon"], dims: VOLUME, factor: 4.54609e-3 },
  // Speed
  { pint: "mile_per_hour", aliases: ["mph", "MPH"], dims: SPEED, factor: MILE / HOUR },
  { pint: "kilometer_per_hour", aliases: ["kph", "KPH"], dims: SPEED, factor: 1000 / HOUR },
  { pint: "knot", aliases: ["kt", "knot_international", "international_knot"], dims: SPEED, factor: 1852 / HOUR },
  // Energy, power, pressure, force, frequency
  { pint: "joule", aliases: ["J"], dims: ENERGY, factor: 1 },
  { pint: "calorie", aliases: ["cal", "thermochemical_calorie"], dims: ENERGY, factor: 4.184 },
  { pint: "british_thermal_unit", aliases: ["Btu", "BTU"], dims: ENERGY, factor: 1055.056 },
  { pint: "watt_hour", aliases: ["Wh", "watthour"], dims: ENERGY, factor: HOUR },
  { pint: "electron_volt", aliases: ["eV"], dims: ENERGY, factor: 1.602176634e-19 },
  { pint: "erg", aliases: [], dims: ENERGY, factor: 1e-7 },
  { pint: "watt", aliases: ["W"], dims: POWER, factor: 1 },
  { pint: "horsepower", aliases: ["hp", "UK_horsepower"], dims: POWER, factor: 550 * FOOT * POUND_FORCE },
  { pint: "pascal", aliases: ["Pa"], dims: PRESSURE, factor: 1 },
  { pint: "bar", aliases: [], dims: PRESSURE, factor: 1e5 },
  { pint: "atmosphere", aliases: ["atm", "standard_atmosphere"], dims: PRESSURE, factor: ATMOSPHERE },
  { pint: "torr", aliases: [], dims: PRESSURE, factor: ATMOSPHERE / 760 },
  { pint: "pound_force_per_square_inch", aliases: ["psi"], dims: PRESSURE, factor: POUND_FORCE / INCH ** 2 },
  { pint: "millimeter_Hg", aliases: ["mmHg", "mm_Hg"], dims: PRESSURE, factor: 1e-3 * MERCURY },
  { pint: "inch_Hg", aliases: ["inHg", "in_Hg"], dims: PRESSURE, factor: INCH * MERCURY },
  { pint: "newton", aliases: ["N"], dims: FORCE, factor: 1 },
  { pint: "force_pound", aliases: ["lbf", "pound_force"], dims: FORCE, factor: POUND_FORCE },
  { pint: "force_kilogram", aliases: ["kgf", "kilogram_force", "pond"], dims: FORCE, factor: GRAVITY },
  { pint: "dyne", aliases: ["dyn"], dims: FORCE, factor: 1e-5 },
  { pint: "hertz", aliases: ["Hz"], dims: { "[time]": -1 }, factor: 1 },
  // Information and angles (pint treats angles as dimensionless)
  { pint: "bit", aliases: [], dims: INFORMATION, factor: 1 },
  { pint: "byte", aliases: ["B", "octet"], dims: INFORMATION, factor: 8 },
  { pint: "radian", aliases: ["rad"], dims: NONE, factor: 1 },
  { pint: "degree", aliases: ["deg", "arcdeg", "arcdegree", "angular_degree"], dims: NONE, factor: Math.PI / 180 },
  { pint: "arcminute", aliases: ["arcmin", "arc_minute", "angular_minute"], dims: NONE, factor: Math.PI / 180 / 60 },
  { pint: "arcsecond", aliases: ["arcsec", "arc_second", "angular_second"], dims: NONE, factor: Math.PI / 180 / 3600 },
  { pint: "turn", aliases: ["revolution", "cycle", "circle"], dims: NONE, factor: 2 * Math.PI },
];

/** SI prefixes pint accepts in front of any unit, long and short spellings. */
const PREFIXES: readonly { readonly long: string; readonly short: readonly string[]; readonly factor: number }[] = [
  { long: "yotta", short: ["Y"], factor: 1e24 },
  { long: "zetta", short: ["Z"], factor: 1e21 },
  { long: "exa", short: ["E"], factor: 1e18 },
  { long: "peta", short: ["P"], factor: 1e15 },
  { long: "tera", short: ["T"], factor: 1e12 },
  { long: "giga", short: ["G"], factor: 1e9 },
  { long: "mega", short: ["M"], factor: 1e6 },
  { long: "kilo", short: ["k"], factor: 1e3 },
  { long: "hecto", short: ["h"], factor: 1e2 },
  { long: "deca", short: ["da"], factor: 1e1 },
  { long: "deka", short: [], factor: 1e1 },
  { long: "deci", short: ["d"], factor: 1e-1 },
  { long: "centi", short: ["c"], factor: 1e-2 },
  { long: "milli", short: ["m"], factor: 1e-3 },
  { long: "micro", short: ["µ", "μ", "u"], factor: 1e-6 },
  { long: "nano", short: ["n"], factor: 1e-9 },
  { long: "pico", short: ["p"], factor: 1e-12 },
  { long: "femto", short: ["f"], factor: 1e-15 },
];

const BY_NAME: ReadonlyMap<string, UnitDef> = new Map(
  UNITS.flatMap((u) => [[u.pint, u] as const, ...u.aliases.map((a) => [a, u] as const)]),
);

interface ResolvedName {
  readonly def: UnitDef;
  readonly prefix?: { readonly long: string; readonly factor: number };
}

/** pint's name lookup: exact name, then prefix + name, each without and then with a plural "s". */
function resolveName(name: string): ResolvedName | undefined {
  for (const stem of name.endsWith("s") && name.length > 1 ? [name, name.slice(0, -1)] : [name]) {
    const exact = BY_NAME.get(stem);
    if (exact) return { def: exact };
    for (const prefix of PREFIXES) {
      for (const spelling of [prefix.long, ...prefix.short]) {
        if (!stem.startsWith(spelling) || stem.length === spelling.length) continue;
        const def = BY_NAME.get(stem.slice(spelling.length));
        if (def && def.offset === undefined) return { def, prefix };
      }
    }
  }
  return undefined;
}

interface UnitFactor {
  readonly resolved: ResolvedName;
  readonly exponent: number;
}

/** A parsed unit expression. */
interface ParsedUnit {
  readonly factors: readonly UnitFactor[];
  /** The units as pint prints them, e.g. "kilometer / hour". */
  readonly pintName: string;
  /** The dimensionality as pint prints it, e.g. "[length] / [time]". */
  readonly dimensionality: string;
}

function undefinedUnit(name: string): ToolError {
  return new ToolError("pint.errors.UndefinedUnitError", `'${name}' is not defined in the unit registry`);
}

/** The subset of pint's string preprocessing that matters for English unit names. */
function preprocess(text: string): string {
  const word = "([A-Za-z_µμÅå]+)";
  return text
    .trim()
    .replace(/°/g, "degree")
    .replace(/\^/g, "**")
    .replace(/\s+/g, " ")
    .replace(new RegExp(`${word} squared`, "g"), "$1**2")
    .replace(new RegExp(`${word} cubed`, "g"), "$1**3")
    .replace(new RegExp(`cubic ${word}`, "g"), "$1**3")
    .replace(new RegExp(`(?:square|sq) ${word}`, "g"), "$1**2")
    .replace(/\bper\b/g, "/")
    .replace(/\s*(\*\*|\*|\/)\s*/g, "$1");
}

const TOKEN = /\*\*(-?\d+)|\*|\/|1(?![0-9.])|[A-Za-z_µμÅå][A-Za-z0-9_µμÅå]*| /y;

function formatPower(base: string, exponent: number): string {
  return exponent === 1 ? base : `${base} ** ${exponent}`;
}

/** pint's default unit formatting: sorted names, positive powers first, then "/ x" per negative power. */
function formatUnits(entries: ReadonlyMap<string, number>, empty: string): string {
  const sorted = [...entries].filter(([, e]) => e !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const up = sorted.filter(([, e]) => e > 0).map(([n, e]) => formatPower(n, e));
  const down = sorted.filter(([, e]) => e < 0).map(([n, e]) => formatPower(n, -e));
  if (up.length === 0 && down.length === 0) return empty;
  const head = up.length > 0 ? up.join(" * ") : "1";
  return [head, ...down].join(" / ");
}

function parseUnit(text: string): ParsedUnit {
  const source = preprocess(text);
  // An empty expression is pint's dimensionless unit.
  if (source === "") return { factors: [], pintName: "dimensionless", dimensionality: "dimensionless" };
  const factors: UnitFactor[] = [];
  let sign = 1;
  let expectUnit = true;
  let lastWasUnit = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw undefinedUnit(text);
    const token = match[0];
    if (match[1] !== undefined) {
      const last = factors.pop();
      if (!last || !lastWasUnit) throw undefinedUnit(text);
      factors.push({ resolved: last.resolved, exponent: last.exponent * Number(match[1]) });
      lastWasUnit = false;
    } else if (token === "*" || token === " " || token === "/") {
      if (expectUnit) throw undefinedUnit(text);
      sign = token === "/" ? -1 : 1;
      expectUnit = true;
      lastWasUnit = false;
    } else if (token === "1") {
      // "1/s": the number one is the empty unit.
      if (!expectUnit) throw undefinedUnit(text);
      expectUnit = false;
      lastWasUnit = false;
    } else {
      if (!expectUnit) throw undefinedUnit(text);
      const resolved = resolveName(token);
      if (!resolved) throw undefinedUnit(token);
      factors.push({ resolved, exponent: sign });
      expectUnit = false;
      lastWasUnit = true;
    }
    if (TOKEN.lastIndex === start) throw undefinedUnit(text);
  }
  if (expectUnit) throw undefinedUnit(text);

  const names = new Map<string, number>();
  const dims = new Map<string, number>();
  for (const { resolved, exponent } of factors) {
    const name = (resolved.prefix?.long ?? "") + resolved.def.pint;
    names.set(name, (names.get(name) ?? 0) + exponent);
    for (const [dim, power] of Object.entries(resolved.def.dims)) dims.set(dim, (dims.get(dim) ?? 0) + power * exponent);
  }
  return { factors, pintName: formatUnits(names, "dimensionless"), dimensionality: formatUnits(dims, "dimensionless") };
}

/** The offset temperature standing alone in `unit`, if any; elsewhere an offset unit is an error. */
function offsetUnit(unit: ParsedUnit): UnitDef | undefined {
  const offsetFactors = unit.factors.filter((f) => f.resolved.def.offset !== undefined);
  const only = offsetFactors[0];
  if (!only) return undefined;
  if (unit.factors.length === 1 && only.exponent === 1) return only.resolved.def;
  throw new ToolError("pint.errors.OffsetUnitCalculusError", `Ambiguous operation with offset unit (${unit.pintName}).`);
}

/** Size of one `unit` in SI base units. */
function siFactor(unit: ParsedUnit): number {
  let factor = 1;
  for (const { resolved, exponent } of unit.factors) factor *= ((resolved.prefix?.factor ?? 1) * resolved.def.factor) ** exponent;
  return factor;
}

/**
 * `pint.Quantity(amount, from_unit).to(to_unit).magnitude`, with upstream's retry: when a unit
 * name is not defined, both names are tried again lower-cased, and that attempt's error wins.
 */
export function convertUnits(amount: number, fromUnit: string, toUnit: string): number {
  try {
    return convertOnce(amount, fromUnit, toUnit);
  } catch (error) {
    if (error instanceof ToolError && error.pyType === "pint.errors.UndefinedUnitError") {
      return convertOnce(amount, fromUnit.toLowerCase(), toUnit.toLowerCase());
    }
    throw error;
  }
}

function convertOnce(amount: number, fromUnit: string, toUnit: string): number {
  const from = parseUnit(fromUnit);
  const to = parseUnit(toUnit);
  if (from.dimensionality !== to.dimensionality) {
    throw new ToolError(
      "pint.errors.DimensionalityError",
      `Cannot convert from '${from.pintName}' (${from.dimensionality}) to '${to.pintName}' (${to.dimensionality})`,
    );
  }
  // pint's order: an offset source goes to kelvin first, the multiplicative part converts by
  // one factor, and an offset destination comes back from kelvin last.
  const fromOffset = offsetUnit(from);
  const toOffset = offsetUnit(to);
  let value = fromOffset ? amount * fromOffset.factor + (fromOffset.offset ?? 0) : amount;
  value *= (fromOffset ? 1 : siFactor(from)) / (toOffset ? 1 : siFactor(to));
  return toOffset ? (value - (toOffset.offset ?? 0)) / toOffset.factor : value;
}
