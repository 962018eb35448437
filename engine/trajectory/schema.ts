// Validation at the wire: every trajectory line is checked against schemas/trajectory.schema.json
// before the reader trusts it. The same schema documents the format for other tools.
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import schema from "../../schemas/trajectory.schema.json";
import type { TrajectoryHeader } from "../episode/types.js";
import type { TrajectoryEvent } from "./events.js";
import { eventValidator, headerValidator, lineValidator } from "./schema-precompiled.js";

const TRAJECTORY_SCHEMA_ID = "urn:toolsandbox:schema:trajectory:1";

/**
 * The references of the three validators inside the schema, by the name the bundle exports each
 * under (scripts/build.mjs compiles them ahead of time: compiling took half a second of every
 * `eval`).
 * @public scripts/build.mjs bundles this module and reads it, out of knip's sight.
 */
export const TRAJECTORY_VALIDATOR_REFS = {
  lineValidator: TRAJECTORY_SCHEMA_ID,
  headerValidator: `${TRAJECTORY_SCHEMA_ID}#/$defs/header`,
  eventValidator: `${TRAJECTORY_SCHEMA_ID}#/$defs/event`,
} as const;

/**
 * The ajv the schema is compiled with, here and by the build; `source` keeps the code for ajv's
 * standalone export. discriminator: errors name the one branch a tagged object meant, not every
 * branch of a oneOf.
 * @public scripts/build.mjs bundles this module and calls it, out of knip's sight.
 */
export function trajectoryAjv(source = false): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: false, discriminator: true, strict: true, allowUnionTypes: true, code: { source, esm: source } });
  ajv.addSchema(schema);
  return ajv;
}

interface Validators {
  readonly line: ValidateFunction;
  readonly header: ValidateFunction<TrajectoryHeader>;
  readonly event: ValidateFunction<TrajectoryEvent>;
}

let compiled: Validators | undefined =
  lineValidator && headerValidator && eventValidator
    ? {
        line: lineValidator,
        header: headerValidator as ValidateFunction<TrajectoryHeader>,
        event: eventValidator as ValidateFunction<TrajectoryEvent>,
      }
    : undefined;

/** The bundles' precompiled validators; from source, compiled once on first use. */
function validators(): Validators {
  if (compiled) return compiled;
  const ajv = trajectoryAjv();
  const get = <T>(ref: string): ValidateFunction<T> => {
    const fn = ajv.getSchema<T>(ref);
    if (!fn) throw new Error(`trajectory schema has no ${ref}`);
    return fn;
  };
  compiled = {
    line: get(TRAJECTORY_VALIDATOR_REFS.lineValidator),
    header: get<TrajectoryHeader>(TRAJECTORY_VALIDATOR_REFS.headerValidator),
    event: get<TrajectoryEvent>(TRAJECTORY_VALIDATOR_REFS.eventValidator),
  };
  return compiled;
}

type SchemaCheck<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function check<T>(validate: ValidateFunction<T>, value: unknown): SchemaCheck<T> {
  if (validate(value)) return { ok: true, value };
  return { ok: false, error: describeSchemaErrors(validate.errors ?? []) };
}

export const checkHeader = (value: unknown): SchemaCheck<TrajectoryHeader> => check(validators().header, value);
export const checkEvent = (value: unknown): SchemaCheck<TrajectoryEvent> => check(validators().event, value);
/** Any line (header or event), as the schema's root describes it. */
export const checkLine = (value: unknown): SchemaCheck<unknown> => check(validators().line, value);

/** One readable sentence for the first schema error, e.g. "/message/sender must be one of: system, user, ...". */
function describeSchemaErrors(errors: readonly ErrorObject[]): string {
  const e = errors[0];
  if (!e) return "does not match the trajectory schema";
  const at = e.instancePath === "" ? "the line" : e.instancePath;
  const p: Record<string, unknown> = e.params;
  switch (e.keyword) {
    case "required":
      return `${at} is missing "${String(p.missingProperty)}"`;
    case "additionalProperties":
      return `${at} has an unexpected property "${String(p.additionalProperty)}"`;
    case "enum":
      return `${at} must be one of: ${(p.allowedValues as unknown[]).map(String).join(", ")}`;
    case "const":
      return `${at} must be ${JSON.stringify(p.allowedValue)}`;
    case "discriminator":
      return p.tagValue === undefined
        ? `${at} is missing "${String(p.tag)}"`
        : `${at} has an unknown "${String(p.tag)}": ${JSON.stringify(p.tagValue)}`;
    case "type":
      return `${at} must be ${String(p.type).split(",").join(" or ")}`;
    default:
      return `${at} ${e.message ?? "is invalid"}`;
  }
}
