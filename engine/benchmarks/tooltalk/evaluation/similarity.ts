// The free-text comparison of ToolTalk's match rules, replaced by one that runs offline.
//
// ToolTalk scores free-text arguments (event names, descriptions and locations, e-mail subjects
// and bodies, message texts, reminder tasks) by the cosine of two DistilBERT [CLS] vectors and
// accepts 0.9 for short fields and 0.8 for bodies and messages (peers.md A.4). Running DistilBERT
// would mean downloading a model, so this module scores ROUGE-L F over rouge-score's tokens with
// Porter stems (engine/evaluation/rouge.ts, the measure ToolSandbox itself uses for free text).
// The two scales are not comparable, so each ToolTalk threshold has its own ROUGE-L threshold;
// docs/tooltalk.md explains the choice; test/benchmarks/tooltalk/evaluation/similarity.test.ts pins the
// thresholds, and test/conformance/tooltalk/tooltalk/similarity.test.ts their effect on the published texts:
// - 0.9 fields -> 0.6: a short text must share most of its words, in order, with the reference
//   ("Water the tomato plants" for "Water tomato plants" passes; "Train to Lyon" for
//   "Train to New Orleans" does not).
// - 0.8 fields -> 0.4: a rewritten message passes when it keeps the reference's substance; two
//   unrelated texts of the data never reach it (the highest pair of distinct bodies is 0.26).
// As in ToolTalk, a missing prediction scores 0. Identical strings score 1 even when they have no
// words (one ground-truth e-mail body is empty; DistilBERT gives identical texts cosine 1).
import type { JsonValue } from "../../../base/json.js";
import { rougeLF } from "../../../evaluation/rouge.js";

/** A free-text scorer in [0, 1] with the thresholds that stand for ToolTalk's 0.9 and 0.8. */
export interface TextSimilarity {
  /** Short label for reports, e.g. "rouge-l". */
  readonly name: string;
  /** Similarity of a predicted text to the ground truth's. */
  score(prediction: string, truth: string): number;
  /** Stands for ToolTalk's 0.9 (names, descriptions, locations, subjects, tasks). */
  readonly strictThreshold: number;
  /** Stands for ToolTalk's 0.8 (e-mail bodies, message texts). */
  readonly looseThreshold: number;
}

export const ROUGE_L_SIMILARITY: TextSimilarity = {
  name: "rouge-l",
  score: (prediction, truth) => rougeLF(truth, prediction),
  strictThreshold: 0.6,
  looseThreshold: 0.4,
};

export type TextStrictness = "strict" | "loose";

/**
 * Whether a predicted argument is close enough to the ground truth's. A null or absent prediction
 * scores 0 (ToolTalk's rule), as does a value that is not a string on either side (ToolTalk would
 * hand it to the tokenizer and fail).
 */
export function textsAgree(
  prediction: JsonValue | undefined,
  truth: JsonValue | undefined,
  strictness: TextStrictness,
  similarity: TextSimilarity,
): boolean {
  const threshold = strictness === "strict" ? similarity.strictThreshold : similarity.looseThreshold;
  return textScore(prediction, truth, similarity) >= threshold;
}

export function textScore(prediction: JsonValue | undefined, truth: JsonValue | undefined, similarity: TextSimilarity): number {
  if (typeof prediction !== "string" || typeof truth !== "string") return 0;
  if (prediction === truth) return 1;
  return similarity.score(prediction, truth);
}
