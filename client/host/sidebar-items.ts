// What the ToolSandbox view's three lists say, apart from VS Code: a run's row (told apart from
// the scenario's other runs by its number, with its score or why it has none, the agent and the
// date) and an agent's row. Pure, so the texts are tested without VS Code.
import type { RunRecord } from "../../engine/reports/types.js";
import { runNumber, shortDate } from "../webview/runs/table-model.js";
import type { CommandAgentSetting, RoleChoice } from "./settings.js";

interface RowText {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
}

/** "cellular_off · run 3" / "score 1.00 · agent scripted · 2026-11-25 02:04". */
export function runRow(r: RunRecord): RowText {
  const n = runNumber(r.file);
  const score = r.status === "scored" && r.score !== null ? `score ${r.score.toFixed(2)}` : r.status;
  return {
    label: n === null ? r.scenario : `${r.scenario} · run ${n}`,
    description: `${score} · agent ${r.agent} · ${shortDate(r.date)}`,
    tooltip: [r.file, r.error ?? "", r.end_reason === null ? "" : `ended: ${r.end_reason}`].filter((x) => x !== "").join("\n"),
  };
}

/** Newest first: the run just played is at the top. */
export const newestFirst = (records: readonly RunRecord[]): RunRecord[] => [...records].sort((a, b) => b.date - a.date);

/** The agents a run can be played with: the scripted reference, the configured model, the programs. */
export function agentRows(model: RoleChoice | { readonly problem: string }, programs: readonly CommandAgentSetting[]): RowText[] {
  const rows: RowText[] = [
    { label: "scripted", description: "the scenario's reference · Run Scenario", tooltip: "Plays the scenario's `reference` solution." },
  ];
  if ("problem" in model) rows.push({ label: "model", description: "not usable", tooltip: model.problem });
  else if (model.kind === "model")
    rows.push({
      label: model.settings.model,
      description: `${model.settings.base_url} · Run Scenario with Model`,
      tooltip: "toolsandbox.agent.model and toolsandbox.agent.baseUrl",
    });
  for (const p of programs)
    rows.push({
      label: p.name,
      description: `cmd: ${p.command} · Run Scenario with Agent…`,
      tooltip: `A program agent of toolsandbox.agents; the user is ${p.user === "model" ? "the model of toolsandbox.user.*" : "scripted"}.`,
    });
  return rows;
}
