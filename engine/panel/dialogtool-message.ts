// The panel's DialogTool message for a run: its agent turns scored against its scenario's
// reference (a free run, engine/benchmarks/dialogtool/tasks/trajectory-turns.ts). The extension's feed
// and `replay --html` send it after the lines; a scenario without a reference gets none.
import type { Message, TrajectoryHeader } from "../episode/types.js";
import { scoredFreeRun } from "../benchmarks/dialogtool/tasks/trajectory-turns.js";
import type { HostMessage } from "./protocol.js";

export function dialogToolMessage(
  header: TrajectoryHeader,
  messages: readonly Message[],
): Extract<HostMessage, { type: "dialogtool" }> | null {
  if (header.scenario.reference.length === 0 || messages.length === 0) return null;
  return { type: "dialogtool", report: scoredFreeRun(messages, header.scenario) };
}
