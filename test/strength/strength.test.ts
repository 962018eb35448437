// Scenario strength on scenarios written to have one weakness each: the engine must find it, name
// the milestone or edge responsible, and leave equivalent mutants out of the score.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packById } from "../../engine/packs/registry.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { catalogEntry } from "../../engine/tools/catalog-entry.js";
import { scenarioStrength, type OutcomeLine, type ScenarioStrength } from "../../engine/strength/strength.js";

const FIXTURES = "test/strength/fixtures";

async function strengthOf(name: string): Promise<ScenarioStrength> {
  const checked = loadScenarioFile(join(FIXTURES, `${name}.scenario.yaml`));
  assert.ok(checked.scenario, checked.diagnostics.map((d) => d.message).join("; "));
  const s = await scenarioStrength(checked.scenario);
  assert.equal(s.error, null);
  return s;
}

const find = (lines: readonly OutcomeLine[], operator: string, argument?: string): OutcomeLine => {
  const line = lines.find((l) => l.operator === operator && (argument === undefined || l.call?.argument === argument));
  assert.ok(line, `no ${operator}${argument ? ` on ${argument}` : ""} among ${lines.map((l) => l.operator).join(", ")}`);
  return line;
};

test("a message milestone without the content column lets a wrong text pass, and says which column to add", async () => {
  const s = await strengthOf("message_without_content");
  const content = find(s.mutants, "wrong-argument", "content");
  assert.equal(content.state, "survived");
  assert.equal(content.score, 1);
  assert.equal(content.node, "message_sent");
  assert.equal(content.fix, "add column content to milestone message_sent's MESSAGING target");
  // The recipient is checked: a wrong number is caught.
  assert.equal(find(s.mutants, "wrong-argument", "phone_number").state, "killed");
  assert.ok(s.score !== null && s.score < 1);
});

test("an insufficient-information scenario without its minefield lets an agent act instead of asking", async () => {
  const s = await strengthOf("insufficient_without_minefield");
  const acted = find(s.mutants, "act-without-asking");
  assert.match(acted.change, /^calls send_message_with_phone_number\(/);
  // Nothing looks at MESSAGING, so the wrong agent passes unseen.
  assert.equal(acted.state, "no-coverage");
  assert.equal(acted.score, 1);
  assert.match(acted.fix ?? "", /^add a minefield on a call to send_message_with_phone_number /);
  assert.deepEqual(acted.edit, { kind: "call-minefield", tool: "send_message_with_phone_number" }, "the editor can make the fix");
  assert.equal(s.detected, 0);
});

test("an after edge between two independent calls refuses their other order, and the edge is named", async () => {
  const s = await strengthOf("after_between_independent_reads");
  const reordered = find(s.variants, "reorder-independent");
  assert.equal(reordered.state, "refused");
  assert.ok(reordered.score !== null && reordered.score < 1);
  assert.equal(reordered.node, "searched -> got_time");
  assert.equal(reordered.fix, "drop searched from the after list of milestone got_time");
});

test("a mutant that changes nothing observable is equivalent, not a survivor, and stays out of the score", async () => {
  const s = await strengthOf("unused_read");
  const dropped = s.mutants.find((m) => m.operator === "drop-call" && m.call?.tool === "get_current_timestamp");
  assert.equal(dropped?.state, "equivalent");
  assert.equal(s.counts.equivalent, s.mutants.filter((m) => m.state === "equivalent").length);
  assert.equal(s.valid, s.counts.killed + s.counts.timeout + s.counts.survived + s.counts["no-coverage"]);
  assert.ok(!s.mutants.some((m) => m.state === "survived" && m.call?.tool === "get_current_timestamp"));
});

test("a dropped search whose result the next call still sends is a wrong agent, not an equivalent one", async () => {
  const checked = loadScenarioFile("sample-scenarios/remove_contact_by_phone_adapted.scenario.yaml");
  assert.ok(checked.scenario);
  const s = await scenarioStrength(checked.scenario);
  const dropped = s.mutants.find((m) => m.operator === "drop-call" && m.call?.tool === "search_contacts");
  // The world and the user's messages are the same, but remove_contact uses an id only the search returned.
  assert.equal(dropped?.state, "killed");
});

test("the same scenario gives the same result every time", async () => {
  const a = await strengthOf("message_without_content");
  const b = await strengthOf("message_without_content");
  assert.equal(JSON.stringify(a), JSON.stringify(b));
});

test("every sample gets a strength line: its reference passes, so its mutants can be judged", async () => {
  const { readdirSync } = await import("node:fs");
  const files = readdirSync("sample-scenarios").filter((f) => f.endsWith(".scenario.yaml"));
  assert.equal(files.length, 29);
  for (const f of files) {
    const checked = loadScenarioFile(join("sample-scenarios", f));
    assert.ok(checked.scenario, f);
    const s = await scenarioStrength(checked.scenario, { operators: ["stop-early"] });
    assert.equal(s.error, null, f);
    assert.equal(s.mutants.filter((m) => m.operator === "stop-early").length, 1, f);
  }
});

test("an argument with an enum gets another member of it: the tool's JSON Schema lists the members, and the milestone on that column catches the mutant", async () => {
  const createEvent = packById("tooltalk").tools.find((t) => t.name === "CreateEvent");
  assert.ok(createEvent);
  const schema = catalogEntry(createEvent).parameters as { properties: Record<string, { enum?: string[] }> };
  assert.deepEqual(schema.properties.event_type?.enum, ["meeting", "event"]);

  const s = await strengthOf("tooltalk_event_type");
  const typed = find(s.mutants, "wrong-argument", "event_type");
  assert.equal(typed.change, 'event_type "event" -> "meeting" (enum)');
  assert.equal(typed.state, "killed");
  assert.deepEqual(typed.killedBy, ["event_added"]);

  // The same scenario whose milestone leaves the type out lets the wrong member pass, and says which column to add.
  const text = readFileSync(join(FIXTURES, "tooltalk_event_type.scenario.yaml"), "utf8").replace(", event_type: event }", " }");
  const checked = checkScenarioText(text, "untyped.scenario.yaml");
  assert.ok(checked.scenario, checked.diagnostics.map((d) => d.message).join("; "));
  const untyped = find((await scenarioStrength(checked.scenario)).mutants, "wrong-argument", "event_type");
  assert.equal(untyped.state, "survived");
  assert.equal(untyped.fix, "add column event_type to milestone event_added's CALENDAR target");
});
