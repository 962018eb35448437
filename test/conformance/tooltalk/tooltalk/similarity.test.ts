import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import {
  ROUGE_L_SIMILARITY,
  textScore,
  textsAgree,
  type TextStrictness,
} from "../../../../engine/benchmarks/tooltalk/evaluation/similarity.js";
import { toolTalkDataRoot } from "../published-data.js";

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

test("among distinct ground-truth values of one field, only near-duplicates agree", () => {
  const DATA = toolTalkDataRoot();
  const fields: Readonly<Record<string, readonly [string, TextStrictness][]>> = {
    CreateEvent: [
      ["name", "strict"],
      ["description", "strict"],
      ["location", "strict"],
    ],
    ModifyEvent: [
      ["new_name", "strict"],
      ["new_description", "strict"],
      ["new_location", "strict"],
    ],
    SendEmail: [
      ["subject", "strict"],
      ["body", "loose"],
    ],
    SendMessage: [["message", "loose"]],
    AddReminder: [["task", "strict"]],
  };
  const values = new Map<string, { strictness: TextStrictness; texts: Set<string> }>();
  for (const conversation of [...loadConversationFolder(join(DATA, "easy")), ...loadConversationFolder(join(DATA, "tooltalk"))]) {
    for (const turn of conversation.turns) {
      if (turn.role !== "assistant") continue;
      for (const call of turn.apis) {
        for (const [key, strictness] of fields[call.request.api_name] ?? []) {
          const text = call.request.parameters[key];
          if (typeof text !== "string") continue;
          const field = `${call.request.api_name}.${key}`;
          const entry = values.get(field) ?? { strictness, texts: new Set<string>() };
          entry.texts.add(text);
          values.set(field, entry);
        }
      }
    }
  }
  const agreeing: string[] = [];
  for (const [field, { strictness, texts }] of values) {
    const list = [...texts];
    list.forEach((a, i) => {
      for (const b of list.slice(i + 1)) if (agree(a, b, strictness)) agreeing.push(`${field}: ${a.slice(0, 24)} | ${b.slice(0, 24)}`);
    });
  }
  // Near-duplicates that differ in a name, a pronoun or a figure: word overlap cannot separate
  // them (whether DistilBERT's [CLS] cosine would is not known here). Matching only pairs calls
  // of the same tool, the first unmatched ground truth first, so this rarely decides a match.
  assert.deepEqual(agreeing.sort(), [
    "AddReminder.task: Call my mom | call your mom",
    "AddReminder.task: Pack our bags | Pack bags",
    "AddReminder.task: check your email | check my email",
    "CreateEvent.name: 1 on 1 with Justin | 1 on 1 with Michael",
    "CreateEvent.name: 1 on 1 with Justin | 1 on 1 with Virginia",
    "CreateEvent.name: 1 on 1 with Olivie | 1 on 1 with Justin",
    "CreateEvent.name: 1 on 1 with Olivie | 1 on 1 with Michael",
    "CreateEvent.name: 1 on 1 with Olivie | 1 on 1 with Virginia",
    "CreateEvent.name: 1 on 1 with Virginia | 1 on 1 with Michael",
    "CreateEvent.name: Flight to New York | Trip to New York",
    "SendMessage.message: Hey Hugo, I'm holding a  | Hey Kong, I'm holding a ",
    "SendMessage.message: Hey Hugo, I'm holding a  | Hey Michael, I'm holding",
    "SendMessage.message: Hey Hugo, I'm holding a  | Hey Olivie, I'm holding ",
    "SendMessage.message: Hey Kong, I'm holding a  | Hey Michael, I'm holding",
    "SendMessage.message: Hey Kong, I'm holding a  | Hey Olivie, I'm holding ",
    "SendMessage.message: Hey Michael, I'm holding | Hey Olivie, I'm holding ",
    "SendMessage.message: Reminder: We have a meet | I have updated the meeti",
  ]);
});
