// ROUGE-L over the distinct free texts of ToolTalk's 78 published conversations: which pairs of one
// field agree. The similarity itself is tested by test/benchmarks/tooltalk/evaluation/similarity.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import { ROUGE_L_SIMILARITY, textsAgree, type TextStrictness } from "../../../../engine/benchmarks/tooltalk/evaluation/similarity.js";
import { toolTalkDataRoot } from "../published-data.js";

const agree = (prediction: string | null, truth: string, strictness: TextStrictness): boolean =>
  textsAgree(prediction, truth, strictness, ROUGE_L_SIMILARITY);

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
