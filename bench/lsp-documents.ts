// The generated scenario documents bench:lsp edits and completes in: valid scenarios of a given
// line count (milestones up to the matcher's cap, the rest world rows), with the line an edit
// breaks and mends and the position a completion is asked at.
import type { Position } from "vscode-languageserver/node";
/** Milestone nodes per scenario are capped by the matcher; the rest of the size is world rows. */
const MAX_MILESTONES = 60;

export interface BenchDocument {
  readonly text: string;
  readonly lines: number;
  /** The `kind: snapshot` line the edits break and mend, and the column of the word. */
  readonly editLine: number;
  readonly editCharacter: number;
  /** Right after `table: ` in a milestone: where completion offers the table names. */
  readonly completionAt: Position;
  /** The end of the user's goal, near the top: where the burst of edits types. */
  readonly burstAt: Position;
}

const GOAL = "  goal: Turn off cellular service.";

/** A valid scenario of about `target` lines: a chain of milestones and many REMINDER rows. */
export function scenarioOfLines(target: number): BenchDocument {
  const head = [
    "name: bench_scenario",
    "description: A generated scenario for the language server benchmark.",
    "categories: [SINGLE_TOOL_CALL, SINGLE_USER_TURN]",
    "clock:",
    "  now: 2026-01-15T09:00:00",
    "  timezone: America/Los_Angeles",
    "tools:",
    "  allow: [set_cellular_service_status]",
    "user:",
    GOAL,
    "  opening: Please turn off cellular.",
  ];
  const tail = [
    "reference:",
    "  - calls:",
    "      - tool: set_cellular_service_status",
    "        arguments: { on: false }",
    "  - agent: Cellular service is now off.",
    "  - end_conversation: true",
  ];
  const milestone = (i: number): string[] => [
    `  - id: m${i}`,
    ...(i > 0 ? [`    after: [m${i - 1}]`] : []),
    "    constraints:",
    "      - kind: snapshot",
    "        table: SETTING",
    "        target:",
    "          - { cellular: false }",
  ];
  const milestoneCount = Math.min(MAX_MILESTONES, Math.max(1, Math.round(target / 14)));
  const milestones = ["milestones:"];
  for (let i = 0; i < milestoneCount; i++) milestones.push(...milestone(i));
  const world = ["world:", "  REMINDER:", "    add:"];
  const rows = Math.max(0, Math.floor((target - head.length - tail.length - milestones.length - world.length) / 3));
  for (let i = 0; i < rows; i++) {
    world.push(
      `      - content: Reminder number ${i}`,
      "        reminder_timestamp: tomorrow 17:00",
      "        creation_timestamp: now - 1h",
    );
  }
  const lines = [...head, ...world, ...milestones, ...tail];
  // The milestone in the middle of the chain.
  const middle = lines.indexOf(`  - id: m${Math.floor(milestoneCount / 2)}`);
  const kindLine = lines.findIndex((l, i) => i > middle && l === "      - kind: snapshot");
  const tableLine = kindLine + 1;
  return {
    text: `${lines.join("\n")}\n`,
    lines: lines.length,
    editLine: kindLine,
    editCharacter: "      - kind: ".length,
    completionAt: { line: tableLine, character: "        table: ".length },
    burstAt: { line: lines.indexOf(GOAL), character: GOAL.length },
  };
}
