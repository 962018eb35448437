import { test } from "node:test";
import assert from "node:assert/strict";
import type { DocumentSymbol } from "vscode-languageserver";
import { documentSymbols, foldingRanges } from "../../../server/service/symbols.js";
import { scenarioDoc } from "./cursor.js";

const SCENARIO = `name: demo
clock: { now: 2026-03-05T08:00:00, timezone: Europe/Berlin }
world:
  SETTING: { cellular: false }
  CONTACT:
    add:
      - { name: Lars Ulrich, phone_number: "+15550100" }
tools:
  allow: [search_contacts, send_message_with_phone_number]
user:
  goal: Text Lars.
  opening: Text Lars please.
milestones:
  - id: cellular_on
    description: Cellular is back on.
    constraints:
      - kind: snapshot
        table: SETTING
        target: [{ cellular: true }]
  - id: sent
    constraints:
      - { kind: addition, table: MESSAGING, target: [{ content: hi }] }
minefields:
  - id: wrong_person
    constraints: [{ kind: addition, table: MESSAGING, target: [{ recipient_phone_number: "+10000000000" }] }]
reference:
  - calls:
      - tool: search_contacts
        arguments: { name: Lars }
      - tool: send_message_with_phone_number
        arguments: { phone_number: "+15550100", content: hi }
  - agent: Sent.
  - end_conversation: true
`;

function outline(symbols: readonly DocumentSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${"  ".repeat(depth)}${s.name}${s.detail ? ` — ${s.detail}` : ""}`,
    ...outline(s.children ?? [], depth + 1),
  ]);
}

test("the outline: sections, world tables, each milestone with its constraints, each reference step", () => {
  const doc = scenarioDoc(SCENARIO);
  assert.deepEqual(outline(documentSymbols(doc)), [
    "name — demo",
    "clock",
    "  now — 2026-03-05T08:00:00",
    "  timezone — Europe/Berlin",
    "world",
    "  SETTING",
    "  CONTACT",
    "tools",
    "  allow",
    "user",
    "  goal — Text Lars.",
    "  opening — Text Lars please.",
    "milestones — 2",
    "  cellular_on — Cellular is back on.",
    "    snapshot SETTING",
    "  sent",
    "    addition MESSAGING",
    "minefields — 1",
    "  wrong_person",
    "    addition MESSAGING",
    "reference — 3",
    "  1. calls — search_contacts, send_message_with_phone_number",
    "  2. agent — Sent.",
    "  3. end_conversation",
  ]);
});

test("each symbol's selection is inside its range, and a milestone selects its id", () => {
  const doc = scenarioDoc(SCENARIO);
  const check = (s: DocumentSymbol): void => {
    const inside =
      doc.offsetAt(s.selectionRange.start) >= doc.offsetAt(s.range.start) &&
      doc.offsetAt(s.selectionRange.end) <= doc.offsetAt(s.range.end);
    assert.ok(inside, `selection outside range for ${s.name}`);
    (s.children ?? []).forEach(check);
  };
  const symbols = documentSymbols(doc);
  symbols.forEach(check);
  const sent = symbols.find((s) => s.name.startsWith("milestones"))?.children?.[1];
  assert.ok(sent);
  assert.equal(doc.textDocument.getText(sent.selectionRange), "sent");
  assert.equal(doc.textDocument.getText(sent.range).split("\n").length, 3);
});

test("folding ranges cover multi-line sections, list items and nested blocks", () => {
  const doc = scenarioDoc(SCENARIO);
  const lines = SCENARIO.split("\n");
  const folds = new Map(foldingRanges(doc).map((f) => [lines[f.startLine]?.trim(), lines[f.endLine]?.trim()]));
  assert.equal(folds.get("world:"), '- { name: Lars Ulrich, phone_number: "+15550100" }');
  assert.equal(folds.get("milestones:"), "- { kind: addition, table: MESSAGING, target: [{ content: hi }] }");
  assert.equal(folds.get("- id: cellular_on"), "target: [{ cellular: true }]");
  assert.equal(folds.get("reference:"), "- end_conversation: true");
  assert.ok(!folds.has("name: demo"), "a one-line entry does not fold");
});

test("a broken document still gets an outline of what parsed, and an empty one gets none", () => {
  const broken = scenarioDoc("name: demo\nmilestones:\n  - id: a\n    constraints: [\nreference:\n  - agent: x\n");
  assert.ok(documentSymbols(broken).some((s) => s.name === "name"));
  assert.deepEqual(documentSymbols(scenarioDoc("")), []);
  assert.deepEqual(foldingRanges(scenarioDoc("")), []);
});
