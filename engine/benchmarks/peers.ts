// Peer benchmarks' metrics on a ToolSandbox trajectory, next to ToolSandbox's own milestone score:
// ToolTalk's call metrics and ToolScan's error patterns per episode, and τ-bench's pass^k across
// trials (which needs several episodes, so it is not part of peerMetrics).
import type { Message } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";
import { toolScanMetrics, type ToolScanResult } from "./toolscan/metric.js";
import { toolTalkMetrics, type ToolTalkResult } from "./tooltalk/metric.js";

export interface PeerMetrics {
  readonly tooltalk: ToolTalkResult;
  readonly toolscan: ToolScanResult;
}

interface PeerMetricsOptions {
  /** ToolScan's N; defaults to the scenario's max_messages. */
  readonly toolscanBudget?: number;
}

/**
 * Every per-episode peer metric, as plain JSON data. `availableToolNames` are the names the agent
 * was offered (in offered order); a call to any other name is ToolScan's IFN.
 */
export function peerMetrics(
  scenario: Scenario,
  messages: readonly Message[],
  availableToolNames: readonly string[],
  options: PeerMetricsOptions = {},
): PeerMetrics {
  return {
    tooltalk: toolTalkMetrics(scenario, messages),
    toolscan: toolScanMetrics(scenario, messages, availableToolNames, options.toolscanBudget ?? scenario.max_messages),
  };
}

export type {
  ToolTalkMetrics,
  ToolTalkResult,
} from "./tooltalk/metric.js";
export {
  TOOLSCAN_PATTERNS,
  toolScanMetrics,
  type CallPattern,
  type ToolScanPattern,
  type ToolScanResult,
} from "./toolscan/metric.js";
export type {
  PassHatKReport,
  TaskReliability,
} from "../evaluation/pass-k.js";
