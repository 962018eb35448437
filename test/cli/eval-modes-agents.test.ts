// The peer modes' `eval` adds up per agent: result files of two agents give one aggregate each,
// never one over both (docs/statistics.md), in the text and in --json. The second agent's files
// are the first's with their `agent` field renamed, so both aggregates must come out the same.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";
import { removeTempDirs, requireBuild, runCli, tempDir } from "./harness.js";

before(() => requireBuild());
after(() => removeTempDirs());

/** A folder of `suffix` result files as another agent would have left them: `agent` renamed. */
function asOtherAgent(from: string, suffix: string, agent: string): string {
  const to = join(tempDir("other-agent"), "runs");
  mkdirSync(to);
  const files = readdirSync(from).filter((f) => f.endsWith(suffix));
  assert.ok(files.length >= 2, `the run wrote ${files.length} ${suffix} files`);
  for (const f of files) {
    const data = JSON.parse(readFileSync(join(from, f), "utf8")) as { agent: string };
    assert.equal(data.agent, "scripted");
    writeFileSync(join(to, f), JSON.stringify({ ...data, agent }));
  }
  return to;
}

interface ModeJson {
  readonly aggregate: unknown;
  readonly by_agent: readonly { readonly agent: string; readonly aggregate: unknown }[];
}

test("eval --mode tooltalk over two agents' runs: an aggregate per agent, none over both", () => {
  const scripted = tempDir("tooltalk-a");
  const played = runCli(["run", importedToolTalkFolder(), "--mode", "tooltalk", "--out", scripted]);
  assert.equal(played.status, 0, played.stderr);
  const other = asOtherAgent(scripted, ".tooltalk.json", "openai:other");

  const one = JSON.parse(runCli(["eval", "--mode", "tooltalk", "--json", scripted]).stdout) as ModeJson;
  assert.equal(one.by_agent.length, 1);
  assert.deepEqual(one.aggregate, one.by_agent[0]?.aggregate, "one agent: the aggregate is that agent's");

  const both = runCli(["eval", "--mode", "tooltalk", "--json", scripted, other]);
  assert.equal(both.status, 0, both.stderr);
  const json = JSON.parse(both.stdout) as ModeJson;
  assert.equal(json.aggregate, null, "no aggregate pools two agents");
  assert.deepEqual(
    json.by_agent.map((g) => g.agent),
    ["scripted", "openai:other"],
  );
  for (const g of json.by_agent) assert.deepEqual(g.aggregate, one.aggregate, g.agent);

  const text = runCli(["eval", "--mode", "tooltalk", scripted, other]).stdout;
  assert.match(text, /^2 agents: each is added up on its own, never together$/m);
  assert.match(text, /^agent scripted:\n {2}ToolTalk over \d+ conversations/m);
  assert.match(text, /^agent openai:other:\n {2}ToolTalk over \d+ conversations/m);
});

test("eval --mode dialogtool over two agents' runs: an aggregate per agent, none over both", () => {
  const samples = ["cellular_off_adapted", "remove_contact_by_phone_adapted"].map((n) => join("sample-scenarios", `${n}.scenario.yaml`));
  const scripted = tempDir("dialogtool-a");
  const played = runCli(["run", ...samples, "--mode", "dialogtool", "--out", scripted]);
  assert.equal(played.status, 0, played.stderr);
  const other = asOtherAgent(scripted, ".dialogtool.json", "openai:other");

  const both = runCli(["eval", "--mode", "dialogtool", "--json", scripted, other]);
  assert.equal(both.status, 0, both.stderr);
  const json = JSON.parse(both.stdout) as ModeJson & { by_depth: unknown };
  assert.equal(json.aggregate, null);
  assert.equal(json.by_depth, null);
  assert.deepEqual(
    json.by_agent.map((g) => g.agent),
    ["scripted", "openai:other"],
  );
  assert.deepEqual(json.by_agent[0]?.aggregate, json.by_agent[1]?.aggregate);
  assert.match(
    runCli(["eval", "--mode", "dialogtool", scripted, other]).stdout,
    /^2 agents: each is added up on its own, never together$/m,
  );
});
