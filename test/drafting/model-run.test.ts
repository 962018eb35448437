// Drafting a model's run: the mock model (engine/mock-llm/, through the real openai client over
// HTTP) plays the agent of a sample with the extra-call fault adding a useless search to what it
// does (a detour the scenario's own reference never takes), `toolsandbox run` records it, and the draft made from
// that run keeps the search in its reference but requires it in no milestone: the draft's
// reference with the search taken out still scores 1.0.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { draftScenario } from "../../engine/drafting/draft.js";
import { scoreReference } from "../../engine/evaluation/reference-check.js";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import type { ReferenceStep } from "../../engine/scenario/model.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { readRunFile } from "../../engine/trajectory/run-damage.js";
import { removeTempDirs, requireBuild, runCliAsync, tempDir } from "../cli/harness.js";

const SAMPLE = "sample-scenarios/modify_contact_with_message_recency_adapted.scenario.yaml";
let server: MockLlm;
let faulty: MockLlm;
before(async () => {
  requireBuild();
  const sample = loadScenario(SAMPLE).scenario;
  assert.ok(sample, `${SAMPLE} does not load`);
  // The model's first answer is a search with no arguments (every contact), which nothing uses.
  server = await startMockLlm({ scenarios: [sample], faults: [{ kind: "extra-call", tool: "search_contacts", role: "agent", times: 1 }] });
  // The same model, whose first answer calls a tool the request does not offer.
  faulty = await startMockLlm({ scenarios: [sample], faults: [{ kind: "unknown-tool", role: "agent", times: 1 }] });
});
after(async () => {
  await server.close();
  await faulty.close();
  removeTempDirs();
});

const isDetour = (s: ReferenceStep): boolean =>
  s.kind === "agent_calls" && s.calls.some((c) => c.tool === "search_contacts" && Object.keys(c.arguments).length === 0);

test("a model run with a useless search drafts milestones that do not need the search", async () => {
  const out = tempDir("draft-model");
  const r = await runCliAsync(["run", SAMPLE, "--agent", "openai:mock", "--base-url", `${server.url}/v1`, "--out", out], {
    OPENAI_API_KEY: "test-key",
  });
  assert.equal(r.status, 0, r.stderr);
  const file = readdirSync(out).find((f) => f.endsWith(".trajectory.jsonl"));
  assert.ok(file, "no trajectory written");
  const run = readRunFile(join(out, file));
  assert.equal(run.damage, null);
  assert.equal(run.trajectory!.header.run.agent, "openai:mock");

  const draft = draftScenario(run.trajectory!, { name: "drafted_model_run", source: file });
  const checked = checkScenarioText(draft.text, "drafted_model_run.scenario.yaml");
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.message),
    [],
  );
  const scenario = checked.scenario!;
  assert.ok(scenario.reference.some(isDetour), "the draft's reference lost the run's search");
  assert.equal((await scoreReference(scenario)).score, 1);
  // No milestone was inferred from the detour: no comment names its step.
  const detourStep = scenario.reference.findIndex(isDetour) + 1;
  assert.ok(!draft.text.replace(/\n +# /g, " ").includes(`(reference step ${detourStep})`), draft.text);
  const without = { ...scenario, reference: scenario.reference.filter((s) => !isDetour(s)) };
  assert.equal(without.reference.length, scenario.reference.length - 1);
  assert.equal((await scoreReference(without)).score, 1, "a milestone still needs the search");
});

test("a call to a tool the scenario does not have is left out of the draft's reference, with a note", async () => {
  const out = tempDir("draft-fault");
  const r = await runCliAsync(["run", SAMPLE, "--agent", "openai:mock", "--base-url", `${faulty.url}/v1`, "--out", out], {
    OPENAI_API_KEY: "test-key",
  });
  assert.equal(r.status, 0, r.stderr);
  const file = readdirSync(out).find((f) => f.endsWith(".trajectory.jsonl"));
  assert.ok(file);
  const trajectory = readRunFile(join(out, file)).trajectory!;
  assert.ok(
    trajectory.messages.some((m) => m.openai_function_name === "unknown_tool"),
    "the fault did not reach the run",
  );
  const draft = draftScenario(trajectory, { name: "drafted_fault", source: file });
  assert.deepEqual(
    draft.notes.filter((n) => n.includes("unknown_tool")).map((n) => n.replace(/\(([^)]*)\)/, "(ID)")),
    ["reference: left out unknown_tool (ID): no such tool in the pack"],
  );
  const checked = checkScenarioText(draft.text, "drafted_fault.scenario.yaml");
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.message),
    [],
  );
  assert.equal((await scoreReference(checked.scenario!)).score, 1);
});
