// The scenario schema's validator compiled ahead of time. The bundles get ajv's standalone code
// generated from schemas/scenario.schema.json in place of this file (scripts/build.mjs); run from
// source, as the tests are, there is none, and scenario-validator.ts compiles the schema itself.
import type { ValidateFunction } from "ajv";

export const precompiledValidator: ValidateFunction | null = null;
