// `npm run conformance:prompts`: what the models are shown, ours against a ToolSandbox checkout's
// own, for every imported scenario with the prompt set the import writes. Needs
// TOOLSANDBOX_UPSTREAM (the checkout) and TOOLSANDBOX_PYTHON (a Python that imports it).
//
// Compared as JSON text, so key order counts: the agent's tool schemas (as written, and in each of
// the 8 tool-augmentation variants `run --augment` plays, against upstream's own variant of that
// name: distraction tools and scramblings), the user simulator's tool schemas, the agent's system
// prompt and the user simulator's system messages (its own and each demonstration's). A last row
// shows the agent's schemas with our own wording instead, for contrast. Then each sample that keeps
// an upstream scenario's name is checked to score exactly as that scenario (milestones, minefields
// and their targets). Exit 1 on any difference.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { toolsFor } from "../../engine/episode/tool-calls.js";
import { packById } from "../../engine/packs/registry.js";
import { importToolSandbox, IMPORT_CLOCK } from "../../engine/benchmarks/toolsandbox/importer/import-suite.js";
import { renderUserSystemMessage } from "../../engine/scenario/prompts/prompts.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { expandAugmentations } from "../../engine/scenario/augmentations/augmentations.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { openAiToolSchema } from "../../engine/tools/openai-schema.js";
import { agentToolSchemas } from "../../engine/scenario/augmentations/scrambling.js";

const upstream = process.env.TOOLSANDBOX_UPSTREAM;
const python = process.env.TOOLSANDBOX_PYTHON;
if (!upstream || !python) {
  console.error("conformance:prompts needs TOOLSANDBOX_UPSTREAM=<ToolSandbox checkout> and TOOLSANDBOX_PYTHON=<python that imports it>");
  process.exit(2);
}

/** Per named scenario (base and augmentation variants) what upstream's roles are shown. */
type UpstreamPrompts = Record<string, { agent_tools: unknown[]; user_tools: unknown[]; agent_system: string[]; user_system: string[] }>;

function agentSchemas(scenario: Scenario, descriptions = scenario.tools.descriptions): string {
  return JSON.stringify(
    agentToolSchemas(toolsFor(scenario, "agent"), scenario.options.augmentations ?? [], packById(scenario.world.pack).tools, descriptions),
  );
}

/** The row a variant is counted in: its name's suffix after the base scenario's name. */
function variantRow(variant: Scenario, base: Scenario): string {
  const suffix = variant.name.slice(base.name.length).replace(/^_/, "");
  return suffix === "" ? "agent tool schemas, as written" : `  ${suffix}`;
}

function userSchemas(scenario: Scenario): string {
  return JSON.stringify(
    toolsFor(scenario, "user").map((t) => openAiToolSchema({ ...t, docstring: scenario.tools.descriptions?.[t.name] ?? t.docstring })),
  );
}

const work = mkdtempSync(join(tmpdir(), "toolsandbox-prompt-conformance-"));
try {
  const imported = join(work, "imported");
  const suite = importToolSandbox(upstream, { out: imported, python });
  const run = spawnSync(
    python,
    [join(__dirname, "upstream_prompts.py"), "--now", String(IMPORT_CLOCK.now), "--timezone", IMPORT_CLOCK.timezone],
    {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, PYTHONPATH: upstream },
    },
  );
  if (run.status !== 0) {
    console.error(`upstream's prompts could not be read: ${(run.stderr ?? "").trim().split("\n").pop() ?? ""}`);
    process.exit(1);
  }
  const theirs = JSON.parse(run.stdout) as UpstreamPrompts;
  const rows = new Map<string, { compared: number; identical: number }>();
  const differences: string[] = [];
  const count = (row: string, scenario: string, ours: string, upstreamText: string, isDifference = true): void => {
    const r = rows.get(row) ?? { compared: 0, identical: 0 };
    r.compared++;
    if (ours === upstreamText) r.identical++;
    else if (isDifference) differences.push(`${scenario}: ${row}: ours ${ours.slice(0, 160)} | upstream ${upstreamText.slice(0, 160)}`);
    rows.set(row, r);
  };
  for (const file of suite.written) {
    const { scenario, diagnostics } = loadScenarioFile(file);
    if (scenario === null) {
      differences.push(`${file}: does not load (${diagnostics.find((d) => d.severity === "error")?.message ?? "?"})`);
      continue;
    }
    const up = theirs[scenario.name];
    if (up === undefined) {
      differences.push(`${scenario.name}: upstream has no scenario of this name`);
      continue;
    }
    // The base scenario and each of the variants `run --augment` plays, against upstream's own variant of that name.
    for (const variant of [scenario, ...expandAugmentations(scenario).filter((v) => v.name !== scenario.name)]) {
      const upVariant = theirs[variant.name];
      if (upVariant === undefined) {
        differences.push(`${variant.name}: upstream has no scenario of this name`);
        continue;
      }
      count(variantRow(variant, scenario), variant.name, agentSchemas(variant), JSON.stringify(upVariant.agent_tools));
    }
    count("user simulator tool schemas", scenario.name, userSchemas(scenario), JSON.stringify(up.user_tools));
    count("agent system prompt", scenario.name, JSON.stringify([scenario.agent.system_prompt]), JSON.stringify(up.agent_system));
    const userSystem = [
      ...scenario.user.demonstrations.map((d) => renderUserSystemMessage(d.goal, [], scenario.user.preamble)),
      renderUserSystemMessage(scenario.user.goal, scenario.user.knowledge, scenario.user.preamble),
    ];
    count("user simulator system messages", scenario.name, JSON.stringify(userSystem), JSON.stringify(up.user_system));
    count("(agent tool schemas in our own wording)", scenario.name, agentSchemas(scenario, {}), JSON.stringify(up.agent_tools), false);
  }
  // Samples that keep an upstream scenario's name must score exactly as it does (the others are
  // renamed `<name>_adapted` and say how they differ: sample-scenarios/README.md).
  const importedNames = new Set(suite.written.map((f) => basename(f, ".scenario.yaml")));
  for (const file of readdirSync("sample-scenarios").filter((f) => f.endsWith(".scenario.yaml"))) {
    const name = basename(file, ".scenario.yaml");
    if (!importedNames.has(name)) continue;
    const ours = loadScenarioFile(join("sample-scenarios", file)).scenario;
    const theirsScenario = loadScenarioFile(join(imported, file)).scenario;
    const scored = (s: Scenario | null): string =>
      JSON.stringify(s === null ? null : [s.milestones, s.minefields].map((nodes) => nodes.map((n) => n.constraints)));
    count("samples named after upstream: milestones", name, scored(ours), scored(theirsScenario));
  }
  console.log(`${"SHOWN TO THE MODELS".padEnd(50)} COMPARED  IDENTICAL`);
  for (const [name, r] of rows) console.log(`${name.padEnd(50)} ${String(r.compared).padStart(8)}  ${String(r.identical).padStart(9)}`);
  for (const d of differences) console.log(`difference: ${d}`);
  process.exitCode = differences.length > 0 ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
