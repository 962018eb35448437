// Issue 39, item 4, below VS Code: the scenario New Scenario writes is valid, indented by two, and
// named as typed; "Add Agent…" appends a program agent only when the list stays readable, and
// the ToolSandbox view's rows tell runs of one scenario apart.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkScenarioFileText } from "../../engine/scenario/load.js";
import { agentNameProblem, baseUrlProblem, withCommandAgent } from "../../client/host/agent-setup.js";
import { scenarioFileName, scenarioNameProblem, scenarioText } from "../../client/host/scenario-template.js";
import { agentRows, newestFirst, runRow } from "../../client/host/sidebar-items.js";
import { readCommandAgents } from "../../client/host/settings.js";
import { syntheticRuns } from "../webview/runs-fixtures.js";

test("the new scenario is valid, named as typed, and indented two spaces per level", () => {
  const text = scenarioText("find_contact");
  const checked = checkScenarioFileText(text, scenarioFileName("find_contact"));
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.message),
    [],
    "no errors in the template",
  );
  assert.equal(checked.scenario?.name, "find_contact");
  const indents = text
    .split("\n")
    .map((l) => l.search(/\S/))
    .filter((n) => n > 0);
  assert.ok(indents.length > 5 && indents.every((n) => n % 2 === 0), `indents ${indents.join(",")}`);
  assert.ok(indents.includes(2) && !text.includes("\t"));
  assert.equal(scenarioNameProblem("find_contact"), null);
  assert.match(scenarioNameProblem("Find Contact") ?? "", /Lower-case letters, digits and underscores/);
  assert.match(scenarioNameProblem("") ?? "", /A name/);
});

test("Add Agent… appends a program agent, refuses a name used twice, and never writes a list it cannot read back", () => {
  const first = withCommandAgent(undefined, " echo-agent ", "node agent.js", "scripted");
  assert.deepEqual(first, { ok: true, value: [{ name: "echo-agent", command: "node agent.js" }] });
  assert.ok(first.ok);
  const second = withCommandAgent(first.value, "py", "python agent.py", "model");
  assert.ok(second.ok);
  const read = readCommandAgents(() => second.value);
  assert.ok(read.ok);
  assert.deepEqual(
    read.value.map((a) => [a.name, a.user]),
    [
      ["echo-agent", "scripted"],
      ["py", "model"],
    ],
  );
  assert.equal(agentNameProblem(second.value, "py"), 'An agent is already named "py".');
  assert.deepEqual(withCommandAgent(second.value, "py", "x", "scripted"), { ok: false, problem: 'the agent\'s name "py" is used twice' });
  assert.deepEqual(withCommandAgent(first.value, "blank", "  ", "scripted"), {
    ok: false,
    problem: 'the agent\'s command must be a non-empty command line, not ""',
  });
  const broken = withCommandAgent("not a list", "a", "b", "scripted");
  assert.ok(!broken.ok && broken.problem.startsWith("fix toolsandbox.agents first: "));
  assert.equal(baseUrlProblem("http://127.0.0.1:8765/v1"), null);
  assert.match(baseUrlProblem("127.0.0.1:8765") ?? "", /http:\/\/ or https:\/\//);
});

test("the view's run rows name the run number, the score or status, and the agent; newest first", () => {
  const [template] = syntheticRuns(1);
  assert.ok(template);
  const runs = [1, 2].map((n) => ({ ...template, file: `/w/.toolsandbox/runs/x.run-${n}.trajectory.jsonl`, date: 1000 * n }));
  const rows = newestFirst(runs).map(runRow);
  assert.deepEqual(
    rows.map((r) => r.label),
    [`${template.scenario} · run 2`, `${template.scenario} · run 1`],
  );
  assert.match(
    rows[0]!.description,
    new RegExp(`^(score \\d\\.\\d\\d|errored|damaged|unscored) · agent ${template.agent.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} · `),
  );
  const errored = runRow({ ...runs[0]!, status: "errored", score: null });
  assert.match(errored.description, /^errored · /, "an errored run shows no score");
  const agents = agentRows({ kind: "scripted" }, [{ name: "mine", command: "node a.js", timeLimit: null, user: "scripted" }]);
  assert.deepEqual(
    agents.map((a) => a.label),
    ["scripted", "mine"],
  );
});
