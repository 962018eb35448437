import { test } from "node:test";
import assert from "node:assert/strict";
import type { EvaluationResult, NodeResult } from "../../../engine/evaluation/result.js";
import { hover } from "../../../server/service/hover.js";
import { withCursor } from "./cursor.js";

function hoverText(text: string, lastRun?: EvaluationResult | null): string | null {
  const { doc, position } = withCursor(text);
  const result = hover(doc, position, lastRun === undefined || lastRun === null ? lastRun : { label: "Last run", result: lastRun });
  if (result === null) return null;
  const contents = result.contents;
  return typeof contents === "object" && "value" in contents ? contents.value : String(contents);
}

const DAG = `name: demo
user: { goal: g, opening: o }
milestones:
  - id: found
    description: The contact was found.
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: cellular_on
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ cellular: true }] }]
  - id: sent
    after: [found, cellular_on]
    constraints:
      - kind: addition
        table: MESSAGING
        reference: found
        target: [{ content: hi }]
`;

test("a tool: signature, description, state dependencies and the errors it can raise", () => {
  const text = hoverText("tools:\n  allow: [send_message_with_pho$0ne_number]\n") ?? "";
  assert.match(text, /send_message_with_phone_number\(phone_number: string, content: string\) -> string/);
  assert.match(text, /Send a text message to a phone number\./);
  assert.match(text, /`SETTING\.cellular` must be `true`; otherwise `ConnectionError: Cellular service is not enabled`/);
  assert.match(text, /\*\*Errors it can raise\*\*[\s\S]*NumberParseException/);
});

test("a tool named in a golden trace and in a reference call", () => {
  const trace = `milestones:
  - id: a
    constraints:
      - kind: snapshot
        table: SANDBOX
        target:
          - tool_trace: { tool_name: search_con$0tacts }
`;
  assert.match(hoverText(trace) ?? "", /^```\nsearch_contacts\(/);
  assert.match(
    hoverText("reference:\n  - calls:\n      - tool: add_rem$0inder\n") ?? "",
    /add_reminder\(content: string, reminder_timestamp: number/,
  );
});

test("a column: its type, meaning and default measure", () => {
  const text =
    hoverText(`milestones:
  - id: a
    constraints:
      - kind: addition
        table: MESSAGING
        target: [{ con$0tent: hi }]
`) ?? "";
  assert.match(text, /MESSAGING\.content: string/);
  assert.match(text, /Text of the message\./);
  assert.match(text, /compared with `rouge_l`/);
  assert.match(
    hoverText("world:\n  REMINDER:\n    add:\n      - { content: x, reminder_times$0tamp: tomorrow 17:00 }\n") ?? "",
    /float \(POSIX seconds\)[\s\S]*time expressions/,
  );
});

test("a measure: what it does, in one paragraph", () => {
  const text =
    hoverText(`milestones:
  - id: a
    constraints:
      - kind: snapshot
        table: CONTACT
        target: [{ name: Homer }]
        measures:
          name: { kind: cont$0ains }
`) ?? "";
  assert.match(text, /\*\*contains\*\* measure/);
  assert.match(text, /substring/);
});

test("a tool argument key shows the parameter", () => {
  const text =
    hoverText("reference:\n  - calls:\n      - tool: add_reminder\n        arguments: { reminder_time$0stamp: tomorrow 17:00 }\n") ?? "";
  assert.match(text, /reminder_timestamp: number/);
  assert.match(text, /required/);
});

test("a milestone id: its place in the effective DAG", () => {
  const atDefinition = hoverText(DAG.replace("id: found", "id: fou$0nd")) ?? "";
  assert.match(atDefinition, /\*\*milestone\*\* `found` — The contact was found\./);
  assert.match(atDefinition, /a root/);
  assert.match(atDefinition, /before `sent`/);
  assert.match(atDefinition, /`sent` compares with the state at its match/);
  const atAfter = hoverText(DAG.replace("after: [found, cellular_on]", "after: [found, cellular$0_on]")) ?? "";
  assert.match(atAfter, /`cellular_on`/);
  const sent = hoverText(DAG.replace("id: sent", "id: se$0nt")) ?? "";
  assert.match(sent, /after `found`, `cellular_on`/);
  assert.match(sent, /compares with the state at `found`/);
  assert.match(hoverText(DAG.replace("reference: found", "reference: initial$0")) ?? "", /when the user first spoke/);
  // Chain mode: no node has `after`, so the list order is the order.
  assert.match(
    hoverText("milestones:\n  - id: a\n    constraints: []\n  - id: b$0\n    constraints: []\n") ?? "",
    /after `a` \(list order/,
  );
});

function nodeResult(id: string, matched: number | null, similarity: number, extra: Partial<NodeResult> = {}): NodeResult {
  return { id, matched_at: matched, explained_at: matched, similarity, constraints: [], guardrails: [], ...extra };
}

test("a milestone id with the last run: matched at message k, or the closest miss and why", () => {
  const run: EvaluationResult = {
    score: 0.5,
    milestone_score: 0.5,
    minefield_score: 0,
    turn_count: 4,
    zero_reason: null,
    window: { first: 1, last: 6 },
    milestones: [
      nodeResult("found", 3, 1),
      nodeResult("cellular_on", 2, 0.85),
      nodeResult("sent", null, 0.4, {
        explained_at: 5,
        constraints: [
          {
            kind: "addition",
            table: "MESSAGING",
            similarity: 0.4,
            reference: { id: "found", index: 3 },
            explanation: {
              kind: "addition",
              table: "MESSAGING",
              similarity: 0.4,
              rows: "current",
              reason: null,
              pairs: [
                {
                  target: 0,
                  row: 5,
                  similarity: 0.4,
                  columns: [{ column: "content", measure: "rouge_l", similarity: 0.4, note: 'ROUGE-L against "hi"' }],
                },
              ],
              weakest: { target: 0, row: 5, column: "content", similarity: 0.4 },
            },
          },
        ],
      }),
    ],
    minefields: [],
  };
  const matched = hoverText(DAG.replace("id: found", "id: fou$0nd"), run) ?? "";
  assert.match(matched, /\*\*Last run:\*\* matched at message 3 \(similarity 1\.00\)/);
  // A partial match says so, in the CodeLens's words: never "matched" beside a failing test.
  const partial = hoverText(DAG.replace("id: cellular_on", "id: cellular$0_on"), run) ?? "";
  assert.match(partial, /\*\*Last run:\*\* partly matched at message 2 \(similarity 0\.85\)/);
  const missed = hoverText(DAG.replace("id: sent", "id: se$0nt"), run) ?? "";
  assert.match(missed, /\*\*Last run:\*\* missed \(best similarity 0\.40; closest at message 5\)/);
  assert.match(missed, /constraint 1 \(addition on MESSAGING\): 0\.40 — `content` scored 0\.40: ROUGE-L against "hi"/);
  assert.doesNotMatch(hoverText(DAG.replace("id: sent", "id: se$0nt"), null) ?? "", /Last run/);
});

test("a world id value names the row it points at", () => {
  const text =
    hoverText(
      "reference:\n  - calls:\n      - tool: remove_contact\n        arguments: { person_id: e3570ab6-0819-5032-be1e-2b$0366390c8ef }\n",
    ) ?? "";
  assert.match(text, /Homer S \(CONTACT row\)/);
});

test("other keys show the schema's description; free text shows nothing", () => {
  assert.match(hoverText("name: x\nmax_mes$0sages: 10\n") ?? "", /How many messages may follow the scripted opening/);
  assert.equal(hoverText("name: x\ndescription: some te$0xt\n"), null);
  assert.equal(hoverText("name: [unclosed$0\n"), null);
});
