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

export interface PeerMetricsOptions {
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

export {
  agentCalls,
  callArguments,
  referenceCalls,
  type AgentCall,
  type CallArguments,
  type CallOutcome,
} from "../evaluation/agent-calls.js";
export {
  aggregateToolTalk,
  isActionTool,
  toolTalkFromCalls,
  toolTalkMatches,
  toolTalkMetrics,
  toolTalkRatios,
  type ToolTalkAggregate,
  type ToolTalkCounts,
  type ToolTalkGroundTruth,
  type ToolTalkMetrics,
  type ToolTalkPrediction,
  type ToolTalkRatios,
  type ToolTalkResult,
} from "./tooltalk/metric.js";
export {
  TOOLSCAN_PATTERNS,
  conversationFinished,
  toolScanFromCalls,
  toolScanMetrics,
  validateCall,
  type CallPattern,
  type CallValidation,
  type ToolScanCall,
  type ToolScanInput,
  type ToolScanPattern,
  type ToolScanResult,
  type ToolScanShortfall,
} from "./toolscan/metric.js";
export {
  fitsToolScanType,
  executionErrorFeedback,
  formatErrorFeedback,
  invalidArgumentNameFeedback,
  invalidArgumentTypeFeedback,
  missingArgumentFeedback,
  toolScanTypeRepr,
  unknownFunctionFeedback,
  type PyException,
} from "../tools/toolscan-checks.js";
export {
  SCORE_TOLERANCE,
  isSuccess,
  passHatK,
  passHatKForTask,
  type PassHatKOptions,
  type PassHatKReport,
  type TaskReliability,
  type TaskTrials,
} from "../evaluation/pass-k.js";
