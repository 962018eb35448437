// The scenario schema's validator. ajv compiles a schema into a function, and compiling this one
// takes longer than checking a whole suite with it, so the bundles carry the function compiled
// ahead of time: scripts/build.mjs generates it from schemas/scenario.schema.json with the ajv of
// scenarioAjv() below. Run from source, as the tests are, the schema is compiled on first use.
import Ajv, { type ValidateFunction } from "ajv";
import schemaJson from "../../schemas/scenario.schema.json";
import { precompiledValidator } from "./scenario-validator-precompiled.js";

/** The schema as the validator checks it (the language server reads it too). */
export const SCENARIO_SCHEMA: Readonly<Record<string, unknown>> = schemaJson;

/**
 * The ajv the schema is compiled with, here and by the build; `source` keeps the code for ajv's standalone export.
 * @public scripts/build.mjs bundles this module and calls it, out of knip's sight.
 */
export function scenarioAjv(source = false): Ajv {
  // strictTypes off: the per-pack name hints (the schema's allOf, scripts/schema-pack-hints.ts) are
  // `properties`/`items` without a `type`, on purpose: a type there would repeat every type error
  // the hand-written part already reports.
  const ajv = new Ajv({
    allErrors: true,
    discriminator: true,
    verbose: true,
    allowUnionTypes: true,
    strictTypes: false,
    code: { source, esm: source },
  });
  // Annotations the editor (yaml-language-server) and schema-diagnostics.ts read; ajv only has to accept them.
  ajv.addKeyword({ keyword: "patternErrorMessage", schemaType: "string" });
  ajv.addKeyword({ keyword: "x-messages", schemaType: "object" });
  return ajv;
}

let compiled: ValidateFunction | null = precompiledValidator;

export function scenarioValidator(): ValidateFunction {
  compiled ??= scenarioAjv().compile(SCENARIO_SCHEMA);
  return compiled;
}
