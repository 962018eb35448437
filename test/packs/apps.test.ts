// Apps group each pack's tools (DialogTool's apps): every tool the agent can call is in exactly one
// app, the user's end_conversation in none; a scenario needs the apps of the tools its reference
// calls; `tools` shows the app of each tool.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appOf, scenarioApps } from "../../engine/scenario/apps.js";
import { packById } from "../../engine/packs/registry.js";
import { PACK_IDS } from "../../engine/packs/types.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { requireBuild, removeTempDirs, runCli, tempDir } from "../cli/harness.js";

after(() => removeTempDirs());

for (const id of PACK_IDS) {
  test(`${id}: every agent tool is in exactly one app; end_conversation in none; no app is empty or named twice`, () => {
    const pack = packById(id);
    for (const tool of pack.tools) {
      const holders = pack.apps.filter((a) => a.tools.includes(tool.name)).map((a) => a.name);
      assert.equal(holders.length, tool.visibleTo.includes("agent") ? 1 : 0, `${tool.name}: ${holders.join(", ")}`);
    }
    const names = pack.apps.map((a) => a.name);
    assert.equal(new Set(names).size, names.length);
    for (const app of pack.apps) {
      assert.ok(app.tools.length > 0, app.name);
      for (const tool of app.tools) assert.ok(pack.toolByName(tool), `${app.name} lists ${tool}, which the pack does not have`);
    }
  });
}

test("a scenario needs the apps of the tools its reference calls, in the pack's order", () => {
  const { scenario } = loadScenarioFile(join("sample-scenarios", "send_message_with_contact_content_cellular_off_adapted.scenario.yaml"));
  assert.ok(scenario);
  assert.deepEqual(scenarioApps(scenario, packById("toolsandbox")), ["Contacts", "Messages", "Settings"]);
  assert.equal(appOf(packById("toolsandbox"), "end_conversation"), null);
});

test("`tools` shows each tool's app; `tools --json` carries it", () => {
  requireBuild();
  const table = runCli(["tools"]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /^set_wifi_status +Settings +Setting +action/m);
  const json = runCli(["tools", "--pack", "tooltalk", "--json"]);
  const entries = JSON.parse(json.stdout) as { name: string; app: string | null }[];
  assert.equal(entries.find((e) => e.name === "SendEmail")?.app, "Email");
  assert.equal(entries.find((e) => e.name === "end_conversation")?.app, null);
});

test("`stats` counts, per app, the scenarios that allow it and need it and the reference's calls", () => {
  requireBuild();
  const r = runCli(["stats", join("sample-scenarios", "send_message_with_contact_content_cellular_off_adapted.scenario.yaml"), "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const stats = JSON.parse(r.stdout) as { apps: { app: string; allowed: number; necessary: number; reference_calls: number }[] };
  assert.deepEqual(stats.apps, [
    { app: "Contacts", allowed: 1, necessary: 1, reference_calls: 1 },
    { app: "Messages", allowed: 1, necessary: 1, reference_calls: 1 },
    { app: "Settings", allowed: 1, necessary: 1, reference_calls: 1 },
  ]);
  assert.match(runCli(["stats", "sample-scenarios"]).stdout, /^APP +ALLOWED +NEEDED +REFERENCE CALLS$/m);
});

test("`run`'s summary gives each scenario's apps and the mean score per app, and prints that table", () => {
  const out = tempDir("apps-run");
  const r = runCli([
    "run",
    join("sample-scenarios", "send_message_with_contact_content_cellular_off_adapted.scenario.yaml"),
    join("sample-scenarios", "cellular_off_adapted.scenario.yaml"),
    "--out",
    out,
  ]);
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    scenarios: { name: string; apps: string[] }[];
    apps: { app: string; scenarios: number; score: number }[];
  };
  assert.deepEqual(summary.scenarios.find((s) => s.name === "cellular_off_adapted")?.apps, ["Settings"]);
  assert.deepEqual(
    summary.apps.map((a) => [a.app, a.scenarios, a.score]),
    [
      ["Contacts", 1, 1],
      ["Messages", 1, 1],
      ["Settings", 2, 1],
    ],
  );
  assert.match(r.stdout, /^APP +SCENARIOS +SCORE +95% CI +TURNS$/m);
});
