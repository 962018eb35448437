// The ToolSandbox importer end to end on a stand-in checkout (test/fixtures/toolsandbox-checkout,
// written for these tests): the Python exporter under two clocks, then the converter.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { convertSuite, IMPORT_CLOCK, PROBE_CLOCK } from "../../../../engine/benchmarks/toolsandbox/importer/import-suite.js";
import { ExporterError, runExporter } from "../../../../engine/benchmarks/toolsandbox/importer/run-exporter.js";
import { checkScenarioText } from "../../../../engine/scenario/resolve.js";

const ROOT = join(__dirname, "..", "..", "..", "..");
const CHECKOUT = join(ROOT, "test", "fixtures", "toolsandbox-checkout");
const REFERENCES = join(ROOT, "test", "fixtures", "toolsandbox-references");
const PYTHON = process.env.TOOLSANDBOX_PYTHON ?? "python3";

function importFixture() {
  const a = runExporter(CHECKOUT, PYTHON, IMPORT_CLOCK);
  const b = runExporter(CHECKOUT, PYTHON, PROBE_CLOCK);
  return convertSuite({ a: a.suite, b: b.suite }, { referencesFolder: REFERENCES, schemaPath: null });
}

/** The value at `path` inside parsed YAML (a negative index counts from a list's end), or undefined where the path leads nowhere. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let here = value;
  for (const step of path) {
    if (Array.isArray(here) && typeof step === "number") here = here.at(step);
    else if (typeof here === "object" && here !== null) here = (here as Record<string, unknown>)[step];
    else return undefined;
  }
  return here;
}

test("every scenario of the stand-in checkout converts into a file the checker accepts", () => {
  const { converted, problems } = importFixture();
  assert.deepEqual(problems, []);
  assert.deepEqual(
    converted.map((c) => c.name),
    ["water_plants_saturday", "wifi_back_on"],
  );
  for (const c of converted) {
    const errors = checkScenarioText(c.text, `${c.name}.scenario.yaml`).diagnostics.filter((d) => d.severity === "error");
    assert.deepEqual(
      errors.map((d) => d.message),
      [],
      c.name,
    );
  }
});

test("the world, the user section and the tool list carry over", () => {
  const wifi = importFixture().converted.find((c) => c.name === "wifi_back_on")!;
  const doc: unknown = parse(wifi.text);
  assert.deepEqual(at(doc, "world"), { SETTING: { wifi: false } }); // only what differs from the default world
  assert.deepEqual(at(doc, "tools"), { allow: ["set_wifi_status"] }); // the user's end_conversation needs no listing
  assert.equal(at(doc, "user", "preamble"), "Pretend to be a phone owner chatting with a helper. Your task: ");
  assert.equal(at(doc, "user", "goal"), "Get wifi switched back on");
  assert.equal(at(doc, "user", "opening"), "My wifi is off, can you fix it?");
  assert.deepEqual(at(doc, "user", "demonstrations"), [
    {
      name: "ask_for_weather",
      goal: "Ask about the weather.",
      messages: [
        { sender: "user", recipient: "agent", content: "Is it sunny?" },
        { sender: "agent", recipient: "user", content: "Yes, all day." },
        { sender: "user", recipient: "execution_environment", content: "end_conversation()" },
      ],
    },
  ]);
  // The checkout's agent prompt differs from ours, so the scenario carries it.
  assert.deepEqual(at(doc, "agent"), { system_prompt: "Check with the phone owner before you guess any value a tool needs." });
  assert.deepEqual(at(doc, "categories"), ["SINGLE_TOOL_CALL", "SINGLE_USER_TURN"]);
  // No reference is kept for it: a placeholder, and a warning naming the construct.
  assert.deepEqual(
    wifi.warnings.map((w) => w.construct),
    ["reference"],
  );
  assert.match(wifi.text, /^# Warning \(reference\): no reference solution/m);
});

test("milestones keep their graph, references, measures, tolerances, extractors and time expressions", () => {
  const plants = importFixture().converted.find((c) => c.name === "water_plants_saturday")!;
  assert.deepEqual(plants.warnings, []);
  const doc: unknown = parse(plants.text);
  // Milestone i's first constraint, and what lies at `path` inside it.
  const first = (i: number, ...path: (string | number)[]): unknown => at(doc, "milestones", i, "constraints", 0, ...path);
  assert.deepEqual(at(doc, "milestones", 0, "after"), []);
  assert.deepEqual(at(doc, "milestones", 1, "after"), []);
  assert.deepEqual(at(doc, "milestones", 2, "after"), ["milestone_0", "milestone_1"]);
  assert.deepEqual(at(doc, "milestones", 3, "after"), ["milestone_2"]);
  assert.deepEqual(at(doc, "milestones", 4, "after"), ["milestone_2"]);
  assert.deepEqual(first(1, "target", 0, "tool_trace"), [
    { tool_name: "search_reminder", arguments: { reminder_timestamp_lowerbound: 0 } },
  ]);
  assert.deepEqual(first(1, "measures"), {
    tool_trace: { kind: "tool_trace", atol: { reminder_timestamp_lowerbound: Number.POSITIVE_INFINITY } },
  });
  assert.match(plants.text, /reminder_timestamp_lowerbound: \.inf/);
  assert.deepEqual(at(doc, "milestones", 2, "guardrails"), { exclude: ["SETTING"] });
  assert.equal(first(2, "reference"), "milestone_0");
  assert.equal(first(2, "target", 0, "reminder_timestamp"), "next saturday 08:00");
  assert.deepEqual(first(2, "measures"), { latitude: { kind: "close", atol: 0.01 } });
  assert.deepEqual(
    {
      kind: first(3, "kind"),
      extractor: first(3, "extractor"),
      fill: first(3, "fill"),
      reference: first(3, "reference"),
    },
    { kind: "tool_trace_extract", extractor: "days", fill: "content", reference: "milestone_2" },
  );
  assert.equal(first(4, "target", 0, "reminder_timestamp"), "tomorrow 18:30");
  assert.deepEqual(at(doc, "minefields", 0, "constraints", 0, "measures"), { content: { kind: "contains" } });
  assert.deepEqual(at(doc, "minefields", 0, "constraints", 0, "target"), [
    { recipient: "execution_environment", sender: "agent", content: "remove_reminder" },
  ]);
  // The kept reference is merged in, its say_milestone step filled from the milestone's text.
  assert.deepEqual(at(doc, "reference", -2), { agent: "Done, 2 days" });
  assert.deepEqual(at(doc, "reference", -1), { end_conversation: true });
});

test("the same checkout gives the same bytes", () => {
  assert.deepEqual(
    importFixture().converted.map((c) => c.text),
    importFixture().converted.map((c) => c.text),
  );
});

test("a folder that is not a ToolSandbox checkout is one clear error", () => {
  assert.throws(
    () => runExporter(join(ROOT, "test", "fixtures"), PYTHON, IMPORT_CLOCK),
    (e: unknown) => e instanceof ExporterError && /not a ToolSandbox checkout/.test(e.message),
  );
});

test("a checkout whose scenarios fail to import is reported in one line", () => {
  const broken = join(ROOT, "test", "fixtures", "toolsandbox-broken-checkout");
  assert.throws(
    () => runExporter(broken, PYTHON, IMPORT_CLOCK),
    (e: unknown) =>
      e instanceof ExporterError &&
      /cannot be imported on this Python .*missing_dependency_of_the_stand_in/.test(e.message) &&
      !e.message.includes("\n"),
  );
});

test("timestamps become the expression whose movement between the two clocks they show", async () => {
  const { timeExpression } = await import("../../../../engine/benchmarks/toolsandbox/importer/time-values.js");
  const a = IMPORT_CLOCK;
  const b = PROBE_CLOCK;
  assert.deepEqual(timeExpression(a.now - 273906, b.now - 273906, a, b), { expression: "now - 3d4h5m6s", exact: true });
  assert.deepEqual(timeExpression(a.now + 3600, b.now + 3600, a, b), { expression: "now + 1h", exact: true });
  assert.deepEqual(timeExpression(1711152000, 1711152000, a, b), { expression: 1711152000, exact: true }); // fixed: a number
  // 17:00 the next day under both clocks (Thursday -> Friday, Tuesday -> Wednesday).
  assert.deepEqual(timeExpression(1768611600, 1770858000, a, b), { expression: "tomorrow 17:00", exact: true });
  // The coming Friday at 17:00 under both clocks (Friday 16th; Friday 13th of February).
  assert.deepEqual(timeExpression(1768611600, 1771030800, a, b), { expression: "next friday 17:00", exact: true });
  // Moves in no known way: an absolute time of the scenario clock, reported as inexact.
  assert.deepEqual(timeExpression(a.now + 10, b.now + 99, a, b), { expression: "2026-01-15T09:00:10-08:00", exact: false });
});

test("an unreadable reference file is one problem line for its scenario; the others are converted", async () => {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const folder = mkdtempSync(join(tmpdir(), "toolsandbox-refs-"));
  writeFileSync(join(folder, "wifi_back_on.yaml"), "reference: [unclosed\n");
  const a = runExporter(CHECKOUT, PYTHON, IMPORT_CLOCK);
  const b = runExporter(CHECKOUT, PYTHON, PROBE_CLOCK);
  const { converted, problems } = convertSuite({ a: a.suite, b: b.suite }, { referencesFolder: folder, schemaPath: null });
  assert.deepEqual(
    converted.map((c) => c.name),
    ["water_plants_saturday"],
  );
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /^wifi_back_on: reference solution .*wifi_back_on\.yaml: /);
});
