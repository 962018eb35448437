// The text similarity ToolTalk's match rules use for free-text fields: ROUGE-L F in place of
// ToolTalk's DistilBERT cosine, its thresholds and its edge cases. Its behaviour over the published
// conversations' texts: test/conformance/tooltalk/tooltalk/similarity.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ROUGE_L_SIMILARITY,
  textScore,
  textsAgree,
  type TextStrictness,
} from "../../../../engine/benchmarks/tooltalk/evaluation/similarity.js";

const agree = (prediction: string | null, truth: string, strictness: TextStrictness): boolean =>
  textsAgree(prediction, truth, strictness, ROUGE_L_SIMILARITY);

test("the substitute for ToolTalk's 0.9 and 0.8 is ROUGE-L F at 0.6 and 0.4", () => {
  assert.equal(ROUGE_L_SIMILARITY.name, "rouge-l");
  assert.equal(ROUGE_L_SIMILARITY.strictThreshold, 0.6);
  assert.equal(ROUGE_L_SIMILARITY.looseThreshold, 0.4);
});

test("a missing prediction scores 0; identical texts score 1, even without words", () => {
  assert.equal(textScore(null, "Pay rent", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore(undefined, "Pay rent", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore(42, "42", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore("", "", ROUGE_L_SIMILARITY), 1); // SendEmail-easy's ground-truth body is empty
  assert.equal(textScore("🧗", "", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore("PAY RENT!", "pay rent", ROUGE_L_SIMILARITY), 1); // case and punctuation are not words
});

// Rewordings a model might write, each against a ground-truth value of the data.
const REWORDINGS: [string, string, TextStrictness][] = [
  ["Pay the electricity bill", "Pay electricity bill", "strict"],
  ["Electricity bill payment", "Pay electricity bill", "strict"],
  ["Team weekly sync", "Weekly team sync", "strict"],
  ["Anniversary dinner with wife", "Anniversary Dinner", "strict"],
  ["551 Washington St", "551 Washington Street", "strict"],
  ["Discussing progress and challenges of current project", "Discuss the progress and challenges of the current project", "strict"],
  ["Working remotely from Paris", "Working from Paris", "strict"],
  ["Hi, just letting you know I'll be working from Paris from 9/15 to 9/21.", "I will be working from Paris from 9/15-9/21.", "loose"],
  ["Are you still free for a call at 3?", "Are you still available to call at 3?", "loose"],
  ["Hi Dad, my flight is UA111 and I should land around 10 PM.", "Hi Dad, I'll be on UA111 and should arrive around 10PM.", "loose"],
  [
    "Sorry, I can't make today's meeting due to a doctor's appointment. Updates to follow later.",
    "Hi team, I'm sorry but I won't be able to make it to today's meeting. I have a doctor's appointment that I forgot about. I'll send out my updates later today. Thanks",
    "loose",
  ],
];

// Different content, or a rewording too free for a short field.
const DIFFERENT: [string, string, TextStrictness][] = [
  ["Flight to Paris", "Flight to San Francisco", "strict"],
  ["Unable to attend today's meeting", "Can't make it to meeting", "strict"],
  ["Buy cake", "Buy more yarn", "strict"],
  ["Hey, I just signed up for the platform. How are you?", "Are you excited for the ski trip to Mont Blanc?", "loose"],
  [
    "here's my blogpost draft: docshare.com/12o89417uoihjns",
    "I completed your invoices for last month. Here they are: MyCloudDocs.com/invoice-12345",
    "loose",
  ],
];

test("rewordings that keep the content agree; different content does not", () => {
  for (const [prediction, truth, strictness] of REWORDINGS) assert.ok(agree(prediction, truth, strictness), `${prediction} ~ ${truth}`);
  for (const [prediction, truth, strictness] of DIFFERENT) assert.ok(!agree(prediction, truth, strictness), `${prediction} !~ ${truth}`);
});

test("the thresholds are ordered as ToolTalk's: a text can pass the loose one and fail the strict one", () => {
  const prediction = "Hi Sally, I'll be coming to visit this weekend. Can't wait to see you!";
  const truth = "Hey Sally, I will be visiting this weekend. I'm looking forward to seeing you!";
  assert.ok(agree(prediction, truth, "loose"));
  assert.ok(!agree(prediction, truth, "strict"));
});
