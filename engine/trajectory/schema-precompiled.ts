// The trajectory schema's validators compiled ahead of time. The bundles get ajv's standalone code
// generated from schemas/trajectory.schema.json in place of this file (scripts/build.mjs); run
// from source, as the tests are, there are none, and schema.ts compiles the schema itself.
import type { ValidateFunction } from "ajv";

export const lineValidator: ValidateFunction | null = null;
export const headerValidator: ValidateFunction | null = null;
export const eventValidator: ValidateFunction | null = null;
