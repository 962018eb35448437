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
  assert.equal(textScore(null, "Renew passport", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore(undefined, "Renew passport", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore(42, "42", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore("", "", ROUGE_L_SIMILARITY), 1); // SendEmail-easy's ground-truth body is empty
  assert.equal(textScore("🧗", "", ROUGE_L_SIMILARITY), 0);
  assert.equal(textScore("RENEW PASSPORT!", "renew passport", ROUGE_L_SIMILARITY), 1); // case and punctuation are not words
});

// Rewordings a model might write, each against a ground-truth value of the kinds the data holds.
const REWORDINGS: [string, string, TextStrictness][] = [
  ["Renew the bike insurance", "Renew bike insurance", "strict"],
  ["Bike insurance renewal", "Renew bike insurance", "strict"],
  ["Garden planning, quarterly", "Quarterly garden planning", "strict"],
  ["Birthday picnic with grandma", "Birthday Picnic", "strict"],
  ["18 Harbour Rd", "18 Harbour Road", "strict"],
  ["Reviewing costs and risks of new greenhouse", "Review the costs and risks of the new greenhouse", "strict"],
  ["Working remotely from Porto", "Working from Porto", "strict"],
  ["Hi, just letting you know I'll be working from Porto from 6/3 to 6/7.", "I will be working from Porto from 6/3-6/7.", "loose"],
  ["Are you still free for a call at 4?", "Can you still do a quick call at 4?", "loose"],
  ["Hi Mum, my train is IC512 and I should get in around 9 PM.", "Hi Mum, I'll be on IC512 and should arrive around 9PM.", "loose"],
  [
    "Sorry, I can't make today's rehearsal due to a dentist's appointment. Notes to follow later.",
    "Hi all, I'm sorry but I won't be able to make it to today's rehearsal. I have a dentist's appointment that I forgot about. I'll send out my notes later today. Thanks",
    "loose",
  ],
];

// Different content, or a rewording too free for a short field.
const DIFFERENT: [string, string, TextStrictness][] = [
  ["Ferry to Bergen", "Ferry to Saint Malo", "strict"],
  ["Unable to attend today's rehearsal", "Can't make it to rehearsal", "strict"],
  ["Buy candles", "Buy more wool", "strict"],
  ["Hey, I just joined the garden club. How are you?", "Are you coming to the canoe race on Sunday?", "loose"],
  [
    "here's my recipe draft: notepad.example/8kq2w7zzp1",
    "I finished the quarterly accounts. Here they are: SafeFiles.example/accounts-2024",
    "loose",
  ],
];

test("rewordings that keep the content agree; different content does not", () => {
  for (const [prediction, truth, strictness] of REWORDINGS) assert.ok(agree(prediction, truth, strictness), `${prediction} ~ ${truth}`);
  for (const [prediction, truth, strictness] of DIFFERENT) assert.ok(!agree(prediction, truth, strictness), `${prediction} !~ ${truth}`);
});

test("the thresholds are ordered as ToolTalk's: a text can pass the loose one and fail the strict one", () => {
  const prediction = "Hi Priya, I'll be coming to visit next week. Can't wait to see you!";
  const truth = "Hey Priya, I will be visiting next week. I'm looking forward to seeing you!";
  assert.ok(agree(prediction, truth, "loose"));
  assert.ok(!agree(prediction, truth, "strict"));
});
