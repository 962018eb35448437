// Synthetic runs for the runs view's benchmark and tests: any number of plausible records (suites,
// categories, model and scripted roles, trials, scores, token counts), and the page showing them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import type { RunRecord } from "../../engine/reports/types.js";
import type { RunsData } from "../../engine/reports/runs-data.js";
import { runsReport } from "../../engine/reports/runs-report.js";

const CATEGORIES = [
  "SINGLE_TOOL_CALL",
  "MULTIPLE_TOOL_CALL",
  "SINGLE_USER_TURN",
  "MULTIPLE_USER_TURN",
  "STATE_DEPENDENCY",
  "CANONICALIZATION",
  "INSUFFICIENT_INFORMATION",
];
const APPS = ["Contacts", "Messages", "Reminders", "Settings", "Clock", "Maps"];
const AGENTS = ["openai:gpt-4o", "openai:gpt-4o-mini", "openai:llama3.1-70b", "scripted"];

/** `n` runs: 1,032-scenario suites, 4 agents, up to 4 trials; scores and tokens from a fixed sequence (no randomness). */
export function syntheticRuns(n: number): RunRecord[] {
  const records: RunRecord[] = [];
  for (let i = 0; i < n; i++) {
    const scenario = `scenario_${String(i % 1032).padStart(4, "0")}`;
    const agent = AGENTS[Math.floor(i / 1032) % AGENTS.length]!;
    const calls = agent === "scripted" ? 0 : 3 + (i % 7);
    records.push({
      file: `/runs/${agent.replace(/[:]/g, "-")}/${scenario}.trial-${(Math.floor(i / 4128) % 4) + 1}.trajectory.jsonl`,
      suite: agent.replace(/[:]/g, "-"),
      scenario,
      categories: [CATEGORIES[i % CATEGORIES.length]!, CATEGORIES[(i * 3 + 1) % CATEGORIES.length]!],
      apps: i % 11 === 0 ? [] : [...new Set([APPS[i % APPS.length]!, APPS[(i * 5 + 2) % APPS.length]!])].sort(),
      agent,
      user: i % 5 === 0 ? "openai:gpt-4o" : "scripted",
      prompts: "own",
      augmentation: "none",
      seed: i % 3,
      trial: (Math.floor(i / 4128) % 4) + 1,
      status: i % 17 === 0 ? "errored" : "scored",
      score: i % 17 === 0 ? null : ((i * 37) % 101) / 100,
      recorded_score: ((i * 37) % 101) / 100,
      turns: 2 + (i % 13),
      messages: 20 + (i % 30),
      end_reason: i % 17 === 0 ? "model_error" : "end_conversation",
      role_play: i % 9 === 0 ? 1 + (i % 5) : null,
      error: i % 17 === 0 ? "agent openai: no answer" : null,
      telemetry: {
        calls,
        failed_calls: 0,
        latency_ms: calls * 850,
        prompt_tokens: calls * 1200,
        completion_tokens: calls * 60,
        total_tokens: calls * 1260,
      },
      date: Date.UTC(2026, 10, 1) + i * 60_000,
      damaged: null,
      damaged_line: null,
      cause: null,
    });
  }
  return records;
}

export function syntheticRunsData(n: number): RunsData {
  const records = syntheticRuns(n);
  return { type: "runs", title: `${n} synthetic runs`, records, report: runsReport(records) };
}

/** The page `report --html` would write for `data` (inline bundle, embedded data). */
export function writeRunsPage(file: string, data: RunsData): string {
  const dist = join(__dirname, "..", "..", "dist");
  writeFileSync(
    file,
    panelHtml({
      title: data.title,
      nonce: createNonce(),
      assets: { kind: "inline", script: readFileSync(join(dist, "runs.js"), "utf8"), style: readFileSync(join(dist, "runs.css"), "utf8") },
      lines: [data],
    }),
  );
  return file;
}
