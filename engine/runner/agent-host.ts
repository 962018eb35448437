// Where an outside agent of a job is reached: something that, before the episode starts, makes
// the episode's McpAgentRole reachable (an MCP server over stdio or HTTP, a command started with
// the endpoint in its environment) and takes it down once the episode has ended.
import type { McpAgentRole } from "../roles/mcp/agent.js";
import type { BatchJob } from "./jobs.js";

export interface AgentHostContext {
  /** The run's output directory (the job's trajectory is `job.trajectory` inside it). */
  readonly outDir: string;
  readonly signal: AbortSignal;
}

export interface HostedAgent {
  /** Called once the episode has ended (whatever ended it); resolves when everything the host started is gone. */
  close(): Promise<void>;
}

export interface McpAgentHost {
  attach(agent: McpAgentRole, job: BatchJob, context: AgentHostContext): Promise<HostedAgent>;
}
