// The similarity measures of the evaluation (reference 5.3-5.6): one entry point per constraint,
// plus the pieces other parts of the engine reuse (SANDBOX rows, default measures, extractors).
export { constraintSimilarity } from "./constraint-similarity.js";
export { sandboxRow } from "./sandbox-rows.js";
export type * from "./types.js";
