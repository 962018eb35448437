// The prompt set: written by the import from the (stand-in) checkout, referred to by each imported
// scenario, and applied when the scenario loads: the texts the models see become the checkout's.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { importToolSandbox } from "../../../../engine/benchmarks/toolsandbox/importer/import-suite.js";
import { parsePromptSet, PROMPT_SET_FILE, PromptSetError } from "../../../../engine/scenario/prompts/prompt-set.js";
import { renderUserSystemMessage } from "../../../../engine/scenario/prompts/prompts.js";
import { loadScenarioFile } from "../../../../engine/scenario/load.js";
import { toolsFor } from "../../../../engine/episode/tool-calls.js";
import { agentToolSchemas } from "../../../../engine/scenario/augmentations/scrambling.js";
import { packById } from "../../../../engine/packs/registry.js";
import { readTrajectoryFile } from "../../../../engine/trajectory/reader.js";
import { requireBuild, runCli } from "../../../cli/harness.js";

const ROOT = join(__dirname, "..", "..", "..", "..");
const CHECKOUT = join(ROOT, "test", "fixtures", "toolsandbox-checkout");
const PYTHON = process.env.TOOLSANDBOX_PYTHON ?? "python3";
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function imported(): string {
  const out = mkdtempSync(join(tmpdir(), "prompt-set-"));
  dirs.push(out);
  importToolSandbox(CHECKOUT, { out, python: PYTHON, referencesFolder: join(ROOT, "test", "fixtures", "toolsandbox-references") });
  return out;
}

test("the import writes the checkout's texts as a prompt set, and each scenario refers to it", () => {
  const out = imported();
  const set = parsePromptSet(readFileSync(join(out, PROMPT_SET_FILE), "utf8"));
  assert.equal(set.pack, "toolsandbox");
  assert.equal(set.user_preamble, "Pretend to be a phone owner chatting with a helper. Your task: ");
  assert.match(set.tools.set_wifi_status ?? "", /^Turn the phone's wifi radio on or off\.\n\nArgs:\n {4}on: {5}True switches wifi on/);
  assert.deepEqual(set.demonstrations.ask_for_weather?.goal, "Ask about the weather.");
  assert.equal(set.demonstrations.ask_for_weather?.messages[0]?.content, "Is it sunny?");
  assert.match(readFileSync(join(out, "wifi_back_on.scenario.yaml"), "utf8"), /^prompts: toolsandbox-prompts\.json$/m);
});

test("loading an imported scenario applies the set: the agent's tool schemas use the checkout's docstrings", () => {
  const out = imported();
  const { scenario } = loadScenarioFile(join(out, "wifi_back_on.scenario.yaml"));
  assert.ok(scenario);
  assert.match(scenario.tools.descriptions?.set_wifi_status ?? "", /^Turn the phone's wifi radio/);
  const [schema] = agentToolSchemas(toolsFor(scenario, "agent"), [], packById("toolsandbox").tools, scenario.tools.descriptions);
  assert.equal(schema?.function.description, "Turn the phone's wifi radio on or off.");
  assert.equal(schema?.function.parameters.properties.on?.description, "True switches wifi on, False switches it off.");
  assert.equal(
    renderUserSystemMessage(scenario.user.goal, [], scenario.user.preamble),
    "Pretend to be a phone owner chatting with a helper. Your task: Get wifi switched back on",
  );
});

const OWN = `name: own_words
user: { goal: Switch wifi on, opening: Wifi please }
milestones:
  - id: on
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
reference:
  - calls: [{ tool: set_wifi_status, arguments: { "on": true } }]
  - agent: Done.
  - end_conversation: true
`;

test("--prompts applies a set to any scenario: preamble, demonstrations, tool texts; without it our wording stays", () => {
  const out = imported();
  const file = join(out, "own.scenario.yaml");
  writeFileSync(file, OWN);
  const plain = loadScenarioFile(file).scenario;
  assert.ok(plain);
  assert.equal(plain.tools.descriptions, undefined);
  assert.equal(plain.user.preamble, undefined);
  const applied = loadScenarioFile(file, { prompts: join(out, PROMPT_SET_FILE) }).scenario;
  assert.ok(applied);
  assert.equal(applied.user.preamble, "Pretend to be a phone owner chatting with a helper. Your task: ");
  assert.match(applied.tools.descriptions?.set_wifi_status ?? "", /^Turn the phone's wifi radio/);
});

test("a prompt set that is missing or malformed is one error at the prompts key, naming the file", () => {
  const out = imported();
  const file = join(out, "broken.scenario.yaml");
  writeFileSync(file, `prompts: nowhere.json\n${OWN}`);
  const missing = loadScenarioFile(file).diagnostics.filter((d) => d.severity === "error");
  assert.equal(missing.length, 1);
  assert.equal(missing[0]?.code, "prompt-set");
  assert.equal(missing[0]?.range.start.line, 0);
  assert.match(missing[0]?.message ?? "", /nowhere\.json: no such file/);
  writeFileSync(join(out, "bad.json"), JSON.stringify({ format: "something-else" }));
  const viaOption = loadScenarioFile(join(out, "wifi_back_on.scenario.yaml"), { prompts: join(out, "bad.json") }).diagnostics.filter(
    (d) => d.severity === "error",
  );
  assert.equal(viaOption.length, 1);
  assert.match(viaOption[0]?.message ?? "", /--prompts cannot be used: .*bad\.json: "format" must be "toolsandbox-prompt-set\/1"/);
});

test("parsePromptSet names what is wrong", () => {
  assert.throws(() => parsePromptSet("{"), PromptSetError);
  assert.throws(() => parsePromptSet(JSON.stringify({ format: "toolsandbox-prompt-set/1", tools: { a: 1 } })), /tools\.a must be text/);
  assert.throws(
    () =>
      parsePromptSet(
        JSON.stringify({ format: "toolsandbox-prompt-set/1", demonstrations: { d: { goal: "g", messages: [{ sender: "x" }] } } }),
      ),
    /needs a sender and a recipient/,
  );
});

test("a run of a scenario with a prompt set is a trajectory that reads back, its header carrying the set's tool texts", () => {
  requireBuild();
  const out = imported();
  const runs = join(out, "runs");
  const r = runCli(["run", join(out, "wifi_back_on.scenario.yaml"), "--out", runs]);
  assert.equal(r.status, 0, r.stderr);
  const trajectory = readTrajectoryFile(join(runs, "wifi_back_on.trajectory.jsonl"));
  assert.deepEqual(trajectory.warnings, []);
  assert.match(trajectory.header.scenario.tools.descriptions?.set_wifi_status ?? "", /^Turn the phone's wifi radio/);
  assert.notEqual(trajectory.evaluation, null, "the run was scored");
  const again = runCli(["eval", join(runs, "wifi_back_on.trajectory.jsonl")]);
  assert.equal(again.status, 0, again.stderr);
});
